import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Clock, groupBy, LOGGER } from '#common';
import { WebhookDeliveryRepository } from '#dal';
import { JobQueue } from '../queue/job-queue.service.js';

const MAX_INTERVAL_MS = 15_000;
const BATCH = 500;

/**
 * The webhook outbox's safety net: a delivery still pending well after its attempt was due lost its
 * queue entry (a dispatch that failed after commit, a Redis restart) or its lane (a worker killed
 * mid-send, its lease ended): its endpoint's lane is woken again. A delivery sent twice this way
 * keeps its webhook-id.
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
    // A delivery being sent is leased (not due): one due for longer than the grace has no lane on it.
    this.graceMs = config.recoveryGraceSeconds * 1000;
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

  /** One pass; returns how many endpoints' lanes were woken. */
  async sweep(): Promise<number> {
    const overdue = await this.deliveries.overdueEndpoints(new Date(this.clock.now().getTime() - this.graceMs), BATCH);
    const byEnvironment = groupBy(overdue, (row) => row.environmentId);
    await this.queue.addBulk(
      'deliver-webhooks',
      [...byEnvironment].map(([environmentId, rows]) => ({
        data: { environmentId, endpointIds: rows.map((row) => row.endpointId) },
      })),
    );
    if (overdue.length > 0)
      this.logger.info({ endpoints: overdue.length }, 'webhook lanes woken for overdue deliveries');
    return overdue.length;
  }
}
