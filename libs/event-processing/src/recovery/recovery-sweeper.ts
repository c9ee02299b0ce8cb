import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Clock, LOGGER } from '#common';
import { JobRepository, TriggerEventRepository } from '#dal';
import { JobQueue } from '../queue/job-queue.service.js';

const BATCH = 500;
const MAX_INTERVAL_MS = 30_000;

/**
 * The database is the truth, the queue only carries ids: a queue entry lost to a crash or a Redis
 * restart is re-created here. Trigger events still `received`, jobs still `queued`, and waiting jobs
 * past their due time are re-enqueued once they are older than the grace period. Several workers
 * sweeping at once is harmless: a job is claimed by one runner only.
 */
@Injectable()
export class RecoverySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly events: TriggerEventRepository,
    private readonly jobs: JobRepository,
    private readonly queue: JobQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const interval = Math.min(this.config.recoveryGraceSeconds * 1000, MAX_INTERVAL_MS);
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'recovery sweep failed'))
        .finally(() => (this.running = undefined));
    }, interval);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many events and jobs were re-enqueued. */
  async sweep(): Promise<{ events: number; jobs: number }> {
    // Row timestamps are written by the database clock; the grace compares against real time.
    const olderThan = new Date(Date.now() - this.config.recoveryGraceSeconds * 1000);
    const events = await this.events.claimStaleReceived(olderThan, BATCH);
    await this.queue.addBulk('fan-out', events.map((event) => ({ data: { eventId: event.id, environmentId: event.environmentId } })));
    // Waiting jobs are due by the service clock (tests move it to release schedule holds).
    const jobs = await this.jobs.claimStale(olderThan, this.clock.now(), BATCH);
    await this.queue.addBulk('run-step', jobs.map((job) => ({ data: { jobId: job.id, environmentId: job.environmentId } })));
    if (events.length + jobs.length > 0) this.logger.info({ events: events.length, jobs: jobs.length }, 'recovery sweep re-enqueued work');
    return { events: events.length, jobs: jobs.length };
  }
}
