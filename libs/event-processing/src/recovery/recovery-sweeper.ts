import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobType } from 'bullmq';
import type { Logger } from 'pino';
import { AppConfig, Clock, groupBy, LOGGER } from '#common';
import { RealtimePublisher } from '#application';
import { InboxMessageRepository, JobRepository, TriggerEventRepository } from '#dal';
import { QUEUE_NAMES, type QueueName } from '../queue/job-catalogue.js';
import { fanOutEntries, stepEntries } from '../queue/queue-entries.js';
import { JobQueue } from '../queue/job-queue.service.js';

const BATCH = 500;
const MAX_INTERVAL_MS = 30_000;
const BACKLOG_GRACE_FACTOR = 10;

/**
 * The database is the truth, the queue only carries ids: a queue entry lost to a crash or a Redis
 * restart is re-created here, and work whose worker died is handed to another. Several workers
 * sweeping at once is harmless: a job is claimed by one runner only, and a fan-out chunk inserts
 * nothing twice.
 */
@Injectable()
export class RecoverySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly events: TriggerEventRepository,
    private readonly jobs: JobRepository,
    private readonly inbox: InboxMessageRepository,
    private readonly queue: JobQueue,
    private readonly realtime: RealtimePublisher,
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

  /** Before the queues close: a sweep in progress still enqueues what it claimed. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One pass; returns how many events and jobs were re-enqueued.
   *
   * `processing` events and `running` jobs carry a heartbeat (the fan-out touches its event per
   * chunk, a runner its job every third of the grace), so one grace without it means the worker died.
   * A `received` event or a `queued` (or overdue `delayed`) job has no heartbeat: it may simply be
   * waiting its turn behind a long backlog. Re-adding it then is harmless (the claim runs it once)
   * but piles duplicates onto the backlog, so while its queue still holds waiting entries such a row
   * is only taken after BACKLOG_GRACE_FACTOR graces; an empty queue proves its entry was lost.
   */
  async sweep(): Promise<{ events: number; jobs: number; snoozes: number }> {
    const graceMs = this.config.recoveryGraceSeconds * 1000;
    // Row timestamps are real time; only a job's due time (runAt) follows the service clock.
    const heartbeatBefore = new Date(Date.now() - graceMs);
    const [eventBacklog, stepBacklog] = await Promise.all([
      this.hasBacklog(QUEUE_NAMES.events),
      this.hasBacklog(QUEUE_NAMES.steps),
    ]);
    const waitingBefore = (backlog: boolean) => new Date(Date.now() - graceMs * (backlog ? BACKLOG_GRACE_FACTOR : 1));

    const events = await this.events.claimStale(waitingBefore(eventBacklog), heartbeatBefore, BATCH);
    await this.queue.addBulk('fan-out', fanOutEntries(events));
    const jobs = await this.jobs.claimStale(
      { waitingBefore: waitingBefore(stepBacklog), now: this.clock.now(), runningBefore: heartbeatBefore },
      BATCH,
    );
    // Marked: one of these jobs may be what stopped its worker (StepRunner runs them one at a time).
    await this.queue.addBulk('run-step', stepEntries(jobs, { recovered: true }));
    // A snooze's end is a delayed queue entry; one lost with the queue is ended here, a grace late.
    const now = this.clock.now();
    const woken = await this.inbox.wakeOverdue(new Date(now.getTime() - graceMs), now, BATCH);
    for (const [environmentId, rows] of groupBy(woken, (row) => row.environmentId))
      this.realtime.delivered(environmentId, rows);
    const snoozes = woken.length;
    if (events.length + jobs.length + snoozes > 0)
      this.logger.info({ events: events.length, jobs: jobs.length, snoozes }, 'recovery sweep re-enqueued work');
    return { events: events.length, jobs: jobs.length, snoozes };
  }

  private async hasBacklog(name: QueueName): Promise<boolean> {
    // A paused queue reports its waiting entries as `paused`, a state BullMQ's JobType omits.
    const counts = await this.queue.queue(name).getJobCounts('waiting', 'prioritized', 'paused' as JobType);
    return Object.values(counts).some((count) => count > 0);
  }
}
