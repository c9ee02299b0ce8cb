import { deliveries } from '#common';
import type { NewMessageRow } from '#dal';

/** Counts stored message outcomes in the `deliveries_total` metric (channel, provider, status). */
export function countDeliveries(rows: NewMessageRow[]): void {
  for (const row of rows)
    deliveries.inc({ channel: row.channel, provider: row.providerId ?? 'none', status: row.status ?? 'sent' });
}
