import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Batcher, Clock, LOGGER, Slots } from '#common';
import { TemplateRenderError } from '#application';
import { JobRepository, type JobRow } from '#dal';
import { JobQueue } from '../queue/job-queue.service.js';
import { STEP_BATCH, stepEntries } from '../queue/step-entries.js';
import { StepHandlers } from './handlers/step-handlers.js';
import { StepContextLoader, record, type StepContext } from './step-context.js';
import { StepFinisher } from './step-finisher.js';
import { StepGates } from './step-gates.js';
import { outcome, type StepOutcome } from './step-outcome.js';

/** Step jobs one worker runs at once (a few batches: one being read while another is written). */
const STEP_JOBS_IN_FLIGHT = 2 * STEP_BATCH;

/**
 * Runs step jobs: check filters/preferences/schedule, run the step, record the execution details and
 * final status, then queue the next job of the notification. The jobs of a batch (and of concurrent
 * batches) run side by side, so their reads, claims and final writes share statements (Batcher,
 * StepFinisher) while each job keeps its own outcome.
 *
 * A step that acts outside the database (a provider call, a digest window) is claimed first (status
 * running, with a heartbeat), so no other runner repeats it. An in_app step writes nothing before
 * its final transaction: it runs without a claim, and that transaction records it only if the row
 * is still claimable — one UPDATE per job instead of two, the largest database cost of a fan-out.
 *
 * A job that stops the worker running it (a crash, out of memory, a blocked event loop losing the
 * queue's lock) must not be retried forever. A queue entry that may hold one — re-enqueued by the
 * recovery sweeper, or handed out again by the queue after its worker stopped — is suspect: its jobs
 * are claimed (in_app too) and run one at a time, so a stop leaves exactly the culprit `running`, and
 * the sweeper counts a stall on it when it hands it back. A claimed job with JOB_MAX_STALLS stalls
 * is failed without being run.
 */
@Injectable()
export class StepRunner {
  /** The rows of concurrently run jobs, read in one statement per environment (a job run twice at once here goes to one caller). */
  private readonly rows = new Batcher<string, JobRow>(
    async (environmentId, ids) => new Map((await this.jobs.findForRun(environmentId, ids)).map((row) => [row.id, row])),
    (id) => id,
    true,
    STEP_BATCH,
  );
  /** Claims of concurrent step jobs share one UPDATE per environment. */
  private readonly claims = new Batcher<{ id: string; now: Date }, JobRow>(
    async (environmentId, keys) => {
      // The earliest `now` of the batch: a job due for it is due for every later caller too.
      const now = new Date(Math.min(...keys.map((key) => key.now.getTime())));
      const rows = await this.jobs.claimMany(
        environmentId,
        keys.map((key) => key.id),
        now,
      );
      return new Map(rows.map((row) => [row.id, row]));
    },
    (key) => key.id,
    true,
    STEP_BATCH,
  );
  /** Jobs this process is running: a duplicate queue entry arriving meanwhile leaves them alone. */
  private readonly inFlight = new Set<string>();
  /**
   * Bounds the step jobs in memory: the queue hands a worker up to WORKER_CONCURRENCY entries of
   * STEP_BATCH jobs, far more than it takes to keep the database and the process busy.
   */
  private readonly slots = new Slots(STEP_JOBS_IN_FLIGHT);

  constructor(
    private readonly jobs: JobRepository,
    private readonly loader: StepContextLoader,
    private readonly gates: StepGates,
    private readonly handlers: StepHandlers,
    private readonly finisher: StepFinisher,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Runs every job of a queue entry. A job that throws is handed back (claimable again) while the
   * others finish; the entry then fails so the queue retries it, and the retry runs only what is
   * still claimable. On the entry's final attempt an unexpected error fails its job instead.
   * `suspect`: the entry may hold a job that stops its worker; its jobs run one at a time.
   */
  async runMany(
    environmentId: string,
    jobIds: string[],
    entry: { finalAttempt: boolean; suspect: boolean },
  ): Promise<void> {
    if (entry.suspect) return this.runOneByOne(environmentId, jobIds, entry.finalAttempt);
    const release = await this.slots.take(jobIds.length);
    try {
      await this.runAll(environmentId, jobIds, entry.finalAttempt);
    } finally {
      release();
    }
  }

  private async runAll(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<void> {
    const now = this.clock.now();
    const early: JobRow[] = [];
    const results = await Promise.allSettled(
      jobIds.map(async (id) => {
        const row = this.inFlight.has(id) ? undefined : await this.rows.load(environmentId, id);
        if (!row || !isClaimable(row, now) || this.inFlight.has(id)) {
          if (row?.status === 'delayed') early.push(row);
          return;
        }
        this.inFlight.add(id);
        try {
          // A job that stopped a worker before is claimed, so a next stop is counted too.
          if (this.handlers.of(row.type)?.claims === false && row.stalls === 0)
            return await this.run({ ...row, attempts: row.attempts + 1 }, finalAttempt, now, false);
          const claimed = await this.claims.load(environmentId, { id, now });
          if (claimed) await this.run(claimed, finalAttempt, now, true);
        } finally {
          this.inFlight.delete(id);
        }
      }),
    );
    const failures = results.flatMap((result, index) =>
      result.status === 'rejected' ? [{ jobId: jobIds[index], error: result.reason as unknown }] : [],
    );
    await this.requeueEarly(environmentId, early, now);
    this.throwFirst(failures);
  }

  /**
   * A suspect entry: each job is claimed right before it runs (one slot at a time), so when the
   * worker stops only the job it was running is `running`; the others stay claimable and are not
   * charged with a stall.
   */
  private async runOneByOne(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<void> {
    const failures: { jobId: string; error: unknown }[] = [];
    const notClaimed: string[] = [];
    for (const id of jobIds) {
      const release = await this.slots.take(1);
      try {
        if (this.inFlight.has(id)) continue;
        this.inFlight.add(id);
        try {
          const now = this.clock.now();
          const claimed = await this.claims.load(environmentId, { id, now });
          if (claimed) await this.run(claimed, finalAttempt, now, true);
          else notClaimed.push(id);
        } catch (error) {
          failures.push({ jobId: id, error });
        } finally {
          this.inFlight.delete(id);
        }
      } finally {
        release();
      }
    }
    const now = this.clock.now();
    const early =
      notClaimed.length > 0
        ? (await this.jobs.findForRun(environmentId, notClaimed)).filter((row) => row.status === 'delayed')
        : [];
    await this.requeueEarly(environmentId, early, now);
    this.throwFirst(failures);
  }

  private throwFirst(failures: { jobId: string; error: unknown }[]): void {
    for (const { jobId, error } of failures)
      this.logger.warn({ err: error, jobId }, 'step job failed; the queue retries it');
    if (failures.length > 0) throw failures[0].error;
  }

  /**
   * Runs one job. An unexpected error hands a claimed job back (queued, or delayed when resuming)
   * for the queue's retry; on the final attempt it fails the job instead.
   */
  private async run(job: JobRow, finalAttempt: boolean, now: Date, claimed: boolean): Promise<void> {
    const { environmentId, id: jobId } = job;
    // Only a waiting step (delay, digest window, schedule hold) sets runAt: a claimed job with one is
    // resuming, also when the sweeper re-queued it after its worker died mid-resume.
    const resumed = job.runAt !== null;
    const heartbeat = claimed
      ? setInterval(
          () => void this.jobs.touchRunning(environmentId, jobId).catch(() => undefined),
          (this.config.recoveryGraceSeconds * 1000) / 3,
        )
      : undefined;
    heartbeat?.unref();
    try {
      if (claimed && job.stalls >= this.config.jobMaxStalls) {
        // Nothing of the job is loaded or run: whatever stopped the workers may be in any of it.
        const detail = `The worker running this step stopped ${job.stalls} times (crash, out of memory or a lost lock); the step is not retried`;
        await this.finisher.finish({ job, now, details: [{ status: 'Failed', detail }] }, outcome.failed(detail), true);
        return;
      }
      const context = await this.loader.load(job, now);
      if (!context) {
        await this.jobs.update(environmentId, jobId, {
          status: 'failed',
          error: 'The notification of this job no longer exists',
        });
        return;
      }
      await this.finisher.finish(context, await this.outcomeOf(context, resumed, finalAttempt), claimed);
    } catch (error) {
      if (!finalAttempt) {
        if (claimed) await this.jobs.update(environmentId, jobId, { status: resumed ? 'delayed' : 'queued' });
        throw error;
      }
      // Reached only when even the outcome could not be recorded: the job must not stay open.
      await this.jobs.update(environmentId, jobId, {
        status: 'failed',
        error: `Unexpected error: ${errorMessage(error)}`,
      });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The step's outcome; a template error, or any error on the final attempt, is a failed step with its detail. */
  private async outcomeOf(context: StepContext, resumed: boolean, finalAttempt: boolean): Promise<StepOutcome> {
    try {
      return await this.execute(context, resumed);
    } catch (error) {
      if (error instanceof TemplateRenderError) {
        record(context, { status: 'Failed', source: 'Payload', detail: error.message });
        return outcome.failed(error.message);
      }
      if (!finalAttempt) throw error;
      record(context, { status: 'Failed', detail: `Unexpected error: ${errorMessage(error)}` });
      return outcome.failed(errorMessage(error));
    }
  }

  /**
   * A queue entry that comes before the row is due (clock skew between hosts) would otherwise leave
   * the job to the recovery sweeper: add it again for the time that remains.
   */
  private async requeueEarly(environmentId: string, rows: JobRow[], now: Date): Promise<void> {
    const early = rows.filter((row) => row.runAt && row.runAt > now);
    await this.queue.addBulk(
      'run-step',
      stepEntries(early.map((row) => ({ id: row.id, environmentId, delayMs: row.runAt!.getTime() - now.getTime() }))),
    );
  }

  private async execute(context: StepContext, resumed: boolean): Promise<StepOutcome> {
    const { job } = context;
    if (!context.subscriber) {
      record(context, { status: 'Failed', detail: 'Subscriber no longer exists: step canceled' });
      return outcome.canceled();
    }
    const handler = this.handlers.of(job.type);
    if (!handler) {
      record(context, { status: 'Failed', detail: `Unknown step type ${job.type}` });
      return outcome.failed(`Unknown step type ${job.type}`);
    }
    if (resumed) return handler.resume(context);
    return (await this.gates.check(context, handler.needs)) ?? handler.start(context);
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The claim's condition (JobRepository.claimMany), read from a row. */
const isClaimable = (row: JobRow, now: Date) =>
  row.status === 'pending' ||
  row.status === 'queued' ||
  (row.status === 'delayed' && (row.runAt === null || row.runAt <= now));
