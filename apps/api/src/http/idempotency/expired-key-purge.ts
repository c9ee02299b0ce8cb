import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock, LOGGER } from '#common';
import { IdempotencyRepository } from '#dal';

const PURGE_INTERVAL_MS = 10 * 60_000;
const PURGE_BATCH = 5_000;

/**
 * An expired key is only taken over when a client reuses it, so without a purge every stored response
 * (up to the body limit each) would stay forever. Each api process purges on a timer; concurrent purges
 * by several processes are harmless, and batches keep each statement's lock time short.
 */
@Injectable()
export class ExpiredIdempotencyKeyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purgeSafely(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes every key expired by now, batch by batch; returns how many went. */
  async purge(): Promise<number> {
    this.running ??= this.deleteAllExpired().finally(() => (this.running = undefined));
    return this.running;
  }

  private async deleteAllExpired(): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const deleted = await this.keys.deleteExpired(now, PURGE_BATCH);
      total += deleted;
      if (deleted < PURGE_BATCH) return total;
    }
  }

  private async purgeSafely(): Promise<void> {
    try {
      const deleted = await this.purge();
      if (deleted > 0) this.logger.info({ deleted }, 'purged expired idempotency keys');
    } catch (error) {
      this.logger.warn({ err: error }, 'idempotency key purge failed; retried on the next tick');
    }
  }
}
