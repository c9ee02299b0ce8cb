import { Inject } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { EnvironmentLabels, queueEnvironmentSlots, queueLaneJobs, queueWait } from '#common';
import { EnvironmentLanes, LaneEmptiedError } from './environment-lanes.js';
import { QueueConsumer } from './queue-consumer.js';
import { QueueWaits } from './queue-waits.js';

/** How long a job refused by its environment's full lane goes back to the queue before a worker takes it again. */
const LANE_FULL_DELAY_MS = 1_000;
/**
 * The BullMQ priority of a job refused by a full lane: behind every unprioritized job. BullMQ's
 * PostgreSQL backend would otherwise put it back at its old place in line, ahead of the newer jobs of
 * other environments, which then wait while a worker takes and refuses each of them again.
 */
const LANE_FULL_PRIORITY = 1;

/**
 * A consumer whose jobs belong to one environment each, and which shares its WORKER_CONCURRENCY
 * slots between environments (EnvironmentLanes): one environment runs at most
 * WORKER_ENVIRONMENT_CONCURRENCY jobs at once, its further jobs wait in its lane, and lanes are served
 * round-robin, so an environment whose jobs are slow (a provider that never answers) or fail delays
 * only itself.
 *
 * The worker takes up to twice WORKER_CONCURRENCY jobs from the queue: the slots, plus as many again
 * waiting in lanes, so jobs of other environments keep coming while one environment's lane is busy;
 * once slots and lanes hold that many, the worker stops taking (back-pressure). A job waiting
 * in a lane stays active and locked in BullMQ (its lock is renewed like a running job's): if the
 * process dies, the lock lapses and BullMQ's stalled check hands the job to another worker, and the
 * database rows stay claimable for the recovery sweeper, so nothing taken is lost. A job whose lane
 * already holds WORKER_ENVIRONMENT_CONCURRENCY jobs is not held at all: it goes back to the queue,
 * delayed by LANE_FULL_DELAY_MS without counting an attempt, so one environment cannot fill every
 * lane and stop the worker from taking other environments' jobs. At shutdown the jobs still waiting
 * in lanes go back to the queue the same way.
 */
export abstract class EnvironmentFairConsumer<D extends { environmentId: string }> extends QueueConsumer {
  @Inject(QueueWaits) private readonly waits: QueueWaits;
  private fairLanes?: EnvironmentLanes;
  private readonly environmentLabels = new EnvironmentLabels();

  protected abstract handle(job: Job<D>): Promise<void>;

  protected override concurrency(): number {
    return 2 * this.config.workerConcurrency;
  }

  async process(job: Job<D>, token?: string): Promise<void> {
    const { environmentId } = job.data;
    // A retry's wait includes its backoff and earlier attempts: only a first attempt measures the queue.
    const firstAttempt = job.attemptsMade === 0;
    const due = job.timestamp + (job.opts.delay ?? 0);
    const taken = this.lanes().takeUnlessFull(environmentId, 1, firstAttempt ? due : Date.now());
    if (taken === 'full') {
      if (job.priority !== LANE_FULL_PRIORITY) await job.changePriority({ priority: LANE_FULL_PRIORITY });
      return this.handBack(job, token, LANE_FULL_DELAY_MS);
    }
    queueLaneJobs.set({ queue: job.queueName }, this.lanes().waiting);
    const release = await taken.catch((error: unknown) => {
      if (error instanceof LaneEmptiedError) return undefined;
      throw error;
    });
    queueLaneJobs.set({ queue: job.queueName }, this.lanes().waiting);
    if (!release) return this.handBack(job, token, 0);
    const labels = { queue: job.queueName, environment: this.environmentLabels.of(environmentId) };
    if (firstAttempt) {
      const waitMs = Math.max(0, Date.now() - due);
      queueWait.observe(labels, waitMs / 1000);
      this.waits.started(waitMs);
    }
    queueEnvironmentSlots.inc(labels);
    try {
      await this.handle(job);
    } finally {
      queueEnvironmentSlots.dec(labels);
      release();
    }
  }

  /**
   * Stops taking entries, then hands those still waiting in lanes back to the queue, so the shutdown
   * waits for the running entries only, not for every waiting one to get a slot and run.
   */
  override async beforeApplicationShutdown(): Promise<void> {
    const closing = super.beforeApplicationShutdown();
    this.fairLanes?.empty();
    await closing;
  }

  /** Back to the queue, due in `delayMs`, without counting an attempt. */
  private async handBack(job: Job<D>, token: string | undefined, delayMs: number): Promise<never> {
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  }

  /** Built on first use: BullMQ may hand over a job before the application's bootstrap hook runs. */
  private lanes(): EnvironmentLanes {
    if (!this.fairLanes) {
      const { workerConcurrency, workerEnvironmentConcurrency } = this.config;
      this.fairLanes = new EnvironmentLanes({
        capacity: workerConcurrency,
        perEnvironment: workerEnvironmentConcurrency,
        laneLimit: workerEnvironmentConcurrency,
      });
      const lanes = this.fairLanes;
      this.waits.watch(() => lanes.oldestWaitingSince());
    }
    return this.fairLanes;
  }
}
