import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { jobDuration, jobFailures, LOGGER } from '#common';
import { JOB_DEFINITIONS, QUEUE_NAMES } from '../queue/job-catalogue.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { STEP_BATCH, stepEntries } from '../queue/queue-entries.js';
import { StepHandlers } from './handlers/step-handlers.js';
import { StepRunner } from './step-runner.service.js';

/** Jobs of one environment handed over in memory and not yet finished, at most: the rest go through the queue. */
const HANDED_OVER_PER_ENVIRONMENT = 2 * STEP_BATCH;

/** When a handed-over batch threw: its jobs go to the queue, due after the queue's own first retry delay. */
const RETRY_DELAY_MS = (JOB_DEFINITIONS['run-step'].options.backoff as { delay: number }).delay;

/** A committed job that is due now. */
export interface DueJob {
  id: string;
  environmentId: string;
  type: string;
}

/**
 * Hands step jobs that are due now and finish within the database (in_app: their handlers claim
 * nothing) to this process's StepRunner, and the others to the queue. A fan-out that just committed
 * its jobs would send their ids through the queue only to take them back a moment later: a queue
 * entry's life is some sixty Redis commands (half of what a trigger arriving alone costs Redis), or
 * on the PostgreSQL queue a dozen statements and commits (a third of such a trigger's whole cost).
 *
 * Nothing is lost by skipping it: the rows are committed before they are handed over, and the
 * recovery sweeper re-enqueues a `queued` job whose worker stopped before running it. What the
 * queue gives besides stays: steps that call out (a provider, an endpoint) and may hang wait for
 * their environment's share of the queue's slots; a batch that throws goes to the queue (attempts
 * and backoff from there on); one environment keeps at most HANDED_OVER_PER_ENVIRONMENT jobs in
 * memory, its further jobs wait in the queue where environments are served in turn; a paused step
 * queue (an operator's brake) runs nothing here either; and a stopping worker hands over nothing
 * more and waits for what it holds.
 */
@Injectable()
export class StepDispatch implements BeforeApplicationShutdown {
  private readonly handedOver = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly runner: StepRunner,
    private readonly handlers: StepHandlers,
    private readonly queue: JobQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Resolves once every job runs here or is in the queue. */
  async dispatch(jobs: DueJob[]): Promise<void> {
    const local = jobs.filter((job) => this.handlers.of(job.type)?.claims === false);
    const here = local.length > 0 && !this.stopping && !(await this.queue.queue(QUEUE_NAMES.steps).isPaused());
    const handedOver = new Set(
      here
        ? stepEntries(local).flatMap(({ data }) => (this.handOver(data.environmentId, data.jobIds) ? data.jobIds : []))
        : [],
    );
    await this.queue.addBulk('run-step', stepEntries(jobs.filter((job) => !handedOver.has(job.id))));
  }

  /** Waits for the batches handed over; none starts once the shutdown began. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Starts the batch here unless its environment holds its share already; answers whether it did. */
  private handOver(environmentId: string, jobIds: string[]): boolean {
    const held = this.handedOver.get(environmentId) ?? 0;
    if (held + jobIds.length > HANDED_OVER_PER_ENVIRONMENT) return false;
    this.handedOver.set(environmentId, held + jobIds.length);
    const started = Date.now();
    const run = this.runner
      .runMany(environmentId, jobIds, { finalAttempt: false, suspect: false })
      .then(
        () => jobDuration.observe({ name: 'run-step', outcome: 'completed' }, (Date.now() - started) / 1000),
        () => {
          jobFailures.inc({ name: 'run-step' });
          jobDuration.observe({ name: 'run-step', outcome: 'failed' }, (Date.now() - started) / 1000);
          return this.requeue(environmentId, jobIds);
        },
      )
      .finally(() => {
        const left = this.handedOver.get(environmentId)! - jobIds.length;
        if (left === 0) this.handedOver.delete(environmentId);
        else this.handedOver.set(environmentId, left);
        this.running.delete(run);
      });
    this.running.add(run);
    return true;
  }

  /** The runner handed the failed jobs back (claimable): the queue retries them; the others it will find done. */
  private async requeue(environmentId: string, jobIds: string[]): Promise<void> {
    const entries = stepEntries(jobIds.map((id) => ({ id, environmentId, delayMs: RETRY_DELAY_MS })));
    await this.queue.addBulk('run-step', entries).catch((enqueueError: unknown) =>
      // The rows say queued: the recovery sweeper enqueues them again.
      this.logger.warn({ err: enqueueError, jobIds }, 'step enqueue failed; left to the recovery sweeper'),
    );
  }
}
