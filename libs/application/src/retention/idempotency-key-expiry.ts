import { Injectable } from '@nestjs/common';
import { IdempotencyRepository } from '#dal';
import type { MaintenanceTally } from './maintenance-tally.js';

const BATCH_ROWS = 5_000;

/**
 * An expired Idempotency-Key is only taken over when a client reuses it, so without this every
 * stored response (up to the body limit each) would stay forever. Batches keep each statement short.
 */
@Injectable()
export class IdempotencyKeyExpiry {
  constructor(private readonly keys: IdempotencyRepository) {}

  async run(now: Date, tally: MaintenanceTally, signal: AbortSignal): Promise<void> {
    await tally.timed('idempotency_keys', async () => {
      while (!signal.aborted) {
        const deleted = await this.keys.deleteExpired(now, BATCH_ROWS);
        tally.add({ idempotency_keys: deleted });
        if (deleted < BATCH_ROWS) return;
      }
    });
  }
}
