import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../database/database.js';
import { checkOnly, uuids } from './table-sql.js';

/**
 * What a trigger gave all its recipients, kept once on its `trigger_events` row (`request`) rather
 * than copied into every notification, job and message.
 */
export interface TriggerFields {
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
}

/** A notification's trigger: its event and what that event's request holds for the steps. */
export interface NotificationTrigger extends TriggerFields {
  /** The notification id. */
  id: string;
  eventId: string;
  /** The trigger's `actor` and `tenant` as sent (null when absent). */
  actor: unknown;
  tenant: unknown;
  /** The trigger's `context` as sent (null when absent). */
  context: unknown;
}

interface TriggerRow {
  id: string | null;
  eventId: string;
  actor: unknown;
  tenant: unknown;
  context: unknown;
  payload: Record<string, unknown> | null;
  overrides: Record<string, unknown> | null;
}

/**
 * The triggers of notifications of one environment, in one statement. Each event's fields come once
 * (a topic's notifications share one event, whose payload may be hundreds of KB) and its objects are
 * shared by the notifications that name it: treat them as read-only. Notifications that do not exist
 * are missing from the map; one whose event is gone gets the empty fields.
 */
export async function findNotificationTriggers(
  executor: DbExecutor,
  environmentId: string,
  notificationIds: string[],
): Promise<Map<string, NotificationTrigger>> {
  if (notificationIds.length === 0) return new Map();
  // Rows of two kinds in one round trip: (notification id, event id), then one row per distinct event.
  const result = await executor.execute<Record<string, unknown>>(sql`
    WITH found AS MATERIALIZED (
      SELECT n.id, n.event_id FROM notifications n
      WHERE n.id = ANY(${uuids(notificationIds)}) AND ${checkOnly(sql`n.environment_id = ${environmentId}`)}
    )
    SELECT f.id, f.event_id AS "eventId", NULL::jsonb AS actor, NULL::jsonb AS tenant, NULL::jsonb AS context, NULL::jsonb AS payload, NULL::jsonb AS overrides
    FROM found f
    UNION ALL
    SELECT NULL, e.id, e.request -> 'actor', e.request -> 'tenant', e.request -> 'context', e.request -> 'payload', e.request -> 'overrides'
    FROM (SELECT DISTINCT f.event_id FROM found f) f
    -- One lookup per event id reads the one partition that holds it; an id list from a subquery
    -- cannot be pruned and would probe every week of events.
    CROSS JOIN LATERAL (
      SELECT e.id, e.request FROM trigger_events e
      WHERE e.id = f.event_id AND ${checkOnly(sql`e.environment_id = ${environmentId}`)}
      LIMIT 1
    ) e`);
  const rows = result.rows as unknown as TriggerRow[];
  const events = new Map<string, Omit<NotificationTrigger, 'id' | 'eventId'>>();
  for (const row of rows) {
    if (row.id !== null) continue;
    events.set(row.eventId, {
      actor: row.actor ?? null,
      tenant: row.tenant ?? null,
      context: row.context ?? null,
      payload: isObject(row.payload) ? row.payload : {},
      overrides: isObject(row.overrides) ? row.overrides : {},
    });
  }
  const found = new Map<string, NotificationTrigger>();
  for (const row of rows) {
    if (row.id === null) continue;
    // A notification whose event row is gone (or never existed: rows seeded without one) has empty fields.
    const event = events.get(row.eventId) ?? { actor: null, tenant: null, context: null, payload: {}, overrides: {} };
    found.set(row.id, { id: row.id, eventId: row.eventId, ...event });
  }
  return found;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
