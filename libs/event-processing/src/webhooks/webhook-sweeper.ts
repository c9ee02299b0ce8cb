import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Clock, groupBy, LOGGER } from '#common';
import { WebhookDeliveryRepository } from '#dal';
import { JobQueue } from '../queue/job-queue.service.js';
import { WEBHOOK_TIMEOUT_MS } from './webhook-sender.js';

const MAX_INTERVAL_MS = 15_000;
const BATCH = 500;

/**
 * The webhook outbox's safety net: a delivery still pending well after its attempt was due lost its
 * queue entry (a dispatch that failed after commit, a Redis restart, a worker killed mid-send), and
 * is handed to the queue again. A delivery sent twice this way keeps its webhook-id.
 */
@Injectable()
export class WebhookSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // Overdue by more than a send's time-out and the recovery grace: its queue entry was lost.
    this.graceMs = WEBHOOK_TIMEOUT_MS + config.recoveryGraceSeconds * 1000;
  }

  private readonly graceMs: number;

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => {
        if (this.running) return;
        this.running = this.sweep()
          .then(() => undefined)
          .catch((error: unknown) => this.logger.warn({ err: error }, 'webhook sweep failed'))
          .finally(() => (this.running = undefined));
      },
      Math.min(this.graceMs, MAX_INTERVAL_MS),
    );
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many deliveries were handed to the queue again. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const taken = await this.deliveries.takeOverdue(
      new Date(now.getTime() - this.graceMs),
      new Date(now.getTime() + this.graceMs),
      BATCH,
    );
    const byEnvironment = groupBy(taken, (row) => row.environmentId);
    await this.queue.addBulk(
      'deliver-webhooks',
      [...byEnvironment].map(([environmentId, rows]) => ({
        data: { environmentId, deliveryIds: rows.map((row) => row.id) },
      })),
    );
    if (taken.length > 0) this.logger.info({ deliveries: taken.length }, 'webhook deliveries re-enqueued');
    return taken.length;
  }
}
