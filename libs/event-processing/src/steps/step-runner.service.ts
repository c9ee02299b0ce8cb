import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Clock, LOGGER } from '#common';
import { TemplateRenderError } from '#application';
import { JobRepository, type JobRow } from '#dal';
import { EngineEvents } from '../engine-events.js';
import { EnvironmentLanes, type Release } from '../queue/environment-lanes.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { STEP_BATCH, stepEntries } from '../queue/queue-entries.js';
import { StepHandlers } from './handlers/step-handlers.js';
import { StepContextLoader, record, type StepContext } from './step-context.js';
import { StepFinisher } from './step-finisher.js';
import { StepGates, withVariant } from './step-gates.js';
import { ReadCoalescer } from './read-coalescer.js';
import { outcome, type StepOutcome } from './step-outcome.js';

/** Step jobs of one environment a worker runs at once (a few batches: one being read while another is written). */
const STEP_JOBS_IN_FLIGHT = 2 * STEP_BATCH;
/** Batches of one environment read at once; entries arriving meanwhile merge into the next read. */
const READS_PER_ENVIRONMENT = 2;

/**
 * Runs step jobs a batch at a time, in two stages that hand each other plain values:
 * - `read` waits for a slot, reads the batch's rows, claims those that must be claimed, loads what
 *   the batch needs (StepContextLoader, one query per kind) and decides what needs no step run: a
 *   stalled job, a gone subscriber, an unknown type, filters, preferences and schedules (StepGates,
 *   one query per kind). Every query of the batch that reads is here, so the ReadCoalescer lets the
 *   environment's next batch read as soon as this stage returns.
 * - `finish` completes each job as soon as it is ready, so a slow provider call holds up only its
 *   own job: its outcome (decided at read, or its step's, through its handler) goes to StepFinisher,
 *   which commits the outcomes of concurrently finishing jobs in one transaction, then publishes
 *   them (inbox sockets, next jobs to the queue). The jobs that threw are handed back.
 *
 * A step that acts outside the database (a provider call, a digest window) is claimed first (status
 * running, with a heartbeat), so no other runner repeats it. A step that writes nothing before its
 * final transaction (in_app) runs without a claim, and that transaction records it only if the row
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
  /** Jobs this process is running: a duplicate queue entry arriving meanwhile leaves them alone. */
  private readonly inFlight = new Set<string>();
  /**
   * Bounds the step jobs in memory: the queue hands a worker up to WORKER_CONCURRENCY entries of
   * STEP_BATCH jobs, far more than it takes to keep the database and the process busy. One
   * environment runs at most STEP_JOBS_IN_FLIGHT of them, so the batches of one whose steps are slow
   * (a provider that never answers) leave room for another's.
   */
  private readonly slots = new EnvironmentLanes({
    capacity: 2 * STEP_JOBS_IN_FLIGHT,
    perEnvironment: STEP_JOBS_IN_FLIGHT,
  });
  private readonly coalescer = new ReadCoalescer<ReadBatch, Failure>(
    {
      read: (environmentId, jobIds, finalAttempt) => this.read(environmentId, jobIds, finalAttempt, false),
      finish: (batch) => this.finish(batch),
    },
    READS_PER_ENVIRONMENT,
    STEP_BATCH,
  );

  constructor(
    private readonly jobs: JobRepository,
    private readonly loader: StepContextLoader,
    private readonly gates: StepGates,
    private readonly handlers: StepHandlers,
    private readonly finisher: StepFinisher,
    private readonly queue: JobQueue,
    private readonly engineEvents: EngineEvents,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Runs every job of a queue entry, in one batch with the entries of its environment that wait for
   * a read at the same time (ReadCoalescer). A job that throws is handed back (claimable again) while the
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
    this.throwFirst(await this.coalescer.submit(environmentId, jobIds, entry.finalAttempt));
  }

  /**
   * A suspect entry: each job is claimed right before it runs (one slot at a time), so when the
   * worker stops only the job it was running is `running`; the others stay claimable and are not
   * charged with a stall.
   */
  private async runOneByOne(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<void> {
    const failures: Failure[] = [];
    for (const id of jobIds)
      failures.push(...(await this.finish(await this.read(environmentId, [id], finalAttempt, true))));
    this.throwFirst(failures);
  }

  private throwFirst(failures: Failure[]): void {
    for (const { jobId, error } of failures)
      this.logger.warn({ err: error, jobId }, 'step job failed; the queue retries it');
    if (failures.length > 0) throw failures[0].error;
  }

  /**
   * The read stage; `claimAll`: claim in_app jobs too. The batch it returns holds a slot and its jobs
   * until `finish` lets them go; when it throws, it has let them go itself.
   */
  private async read(
    environmentId: string,
    jobIds: string[],
    finalAttempt: boolean,
    claimAll: boolean,
  ): Promise<ReadBatch> {
    const hold: Hold = { release: await this.slots.take(environmentId, jobIds.length), jobIds: [] };
    try {
      const now = this.clock.now();
      const runnable = await this.runnable(environmentId, jobIds, now);
      for (const row of runnable) this.inFlight.add(row.id);
      hold.jobIds = runnable.map((row) => row.id);
      const taken = await this.claim(environmentId, runnable, claimAll, now);
      hold.heartbeat = this.heartbeat(environmentId, taken);
      const batch: ReadBatch = { environmentId, finalAttempt, decided: [], hold };
      if (taken.length === 0) return batch;
      try {
        return { ...batch, decided: await this.decide(environmentId, taken, now) };
      } catch (error) {
        // Nothing of the batch could be read: finish hands every job back (or fails it on the final attempt).
        return { ...batch, unread: { taken, error } };
      }
    } catch (error) {
      this.letGo(hold);
      throw error;
    }
  }

  /**
   * The rows among `jobIds` that this batch may run: claimable, and not run by another batch of this
   * process. A delayed job whose queue entry came early is added to the queue again.
   */
  private async runnable(environmentId: string, jobIds: string[], now: Date): Promise<JobRow[]> {
    const rows = await this.jobs.findForRun(
      environmentId,
      jobIds.filter((id) => !this.inFlight.has(id)),
    );
    const runnable = rows.filter((row) => isClaimable(row, now) && !this.inFlight.has(row.id));
    await this.requeueEarly(
      environmentId,
      rows.filter((row) => row.status === 'delayed'),
      now,
    );
    return runnable;
  }

  /**
   * Claims the runnable jobs, except those run without a claim (in_app) unless `claimAll`. A job
   * that stopped a worker before is claimed, so a next stop is counted too.
   */
  private async claim(environmentId: string, runnable: JobRow[], claimAll: boolean, now: Date): Promise<Taken[]> {
    const unclaimed = runnable.filter(
      (row) => !claimAll && row.stalls === 0 && this.handlers.of(row.type)?.claims === false,
    );
    const toClaim = runnable.filter((row) => !unclaimed.includes(row));
    const claimed = await this.jobs.claimMany(
      environmentId,
      toClaim.map((row) => row.id),
      now,
    );
    return [
      ...unclaimed.map((row) => ({ job: { ...row, attempts: row.attempts + 1 }, claimed: false })),
      ...claimed.map((job) => ({ job, claimed: true })),
    ];
  }

  /** Keeps the batch's claims fresh while it runs, so the recovery sweeper does not take them back. */
  private heartbeat(environmentId: string, taken: Taken[]): NodeJS.Timeout | undefined {
    const claimedIds = taken.filter(({ claimed }) => claimed).map(({ job }) => job.id);
    if (claimedIds.length === 0) return undefined;
    const timer = setInterval(
      () => void this.jobs.touchRunning(environmentId, claimedIds).catch(() => undefined),
      (this.config.recoveryGraceSeconds * 1000) / 3,
    );
    timer.unref();
    return timer;
  }

  /**
   * Loads the batch and decides what can be decided without running a step: stalled jobs, a gone
   * subscriber, an unknown type, filters, preferences and schedules.
   */
  private async decide(environmentId: string, taken: Taken[], now: Date): Promise<Decided[]> {
    const stalled = (entry: Taken) => entry.claimed && entry.job.stalls >= this.config.jobMaxStalls;
    const contexts = await this.loader.load(
      environmentId,
      taken.filter((entry) => !stalled(entry)).map(({ job }) => job),
      now,
    );
    const decided: Decided[] = taken.map((entry) => {
      if (stalled(entry)) {
        // Nothing of the job is loaded or run: whatever stopped the workers may be in any of it.
        const detail = `The worker running this step stopped ${entry.job.stalls} times (crash, out of memory or a lost lock); the step is not retried`;
        const context: StepContext = { job: entry.job, now, details: [{ status: 'Failed', detail }] };
        return { ...entry, context, early: outcome.failed(detail) };
      }
      const loaded = contexts.get(entry.job.id);
      const context = loaded && withVariant(loaded);
      return { ...entry, context, early: context ? this.precheck(context) : undefined };
    });
    // Only a waiting step (delay, digest window, schedule hold, provider retry) sets runAt: a claimed
    // job with one is resuming, also when the sweeper re-queued it after its worker died mid-resume.
    const starting = decided.filter(({ context, early, job }) => context && !early && job.runAt === null);
    const gated = await this.gates.check(
      environmentId,
      starting.map(({ context }) => context!),
    );
    starting.forEach((entry, index) => (entry.early = gated[index]));
    return decided;
  }

  /** The outcome of a job that cannot run: its subscriber is gone, or its type has no handler. */
  private precheck(context: StepContext): StepOutcome | undefined {
    const { job } = context;
    if (!context.subscriber) {
      record(context, { status: 'Failed', detail: 'Subscriber no longer exists: step canceled' });
      return outcome.canceled();
    }
    if (!this.handlers.of(job.type)) {
      record(context, { status: 'Failed', detail: `Unknown step type ${job.type}` });
      return outcome.failed(`Unknown step type ${job.type}`);
    }
    return undefined;
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

  /**
   * The stage after the read: completes every job, then hands back those that threw and returns them
   * as failures. Lets the batch's slot and jobs go when it ends.
   */
  private async finish(batch: ReadBatch): Promise<Failure[]> {
    const { environmentId, finalAttempt, decided, unread } = batch;
    try {
      if (unread) return await this.handBackAll(environmentId, unread.taken, finalAttempt, unread.error);
      const results = await Promise.allSettled(decided.map((entry) => this.complete(entry, finalAttempt)));
      const failed = decided.flatMap((entry, index) => {
        const result = results[index];
        return result.status === 'rejected' ? [{ ...entry, error: result.reason as unknown }] : [];
      });
      return await this.handBackAll(environmentId, failed, finalAttempt, undefined);
    } finally {
      this.letGo(batch.hold);
    }
  }

  /** One job: its outcome (decided at read, or its step's) is written by StepFinisher. */
  private async complete({ job, claimed, context, early }: Decided, finalAttempt: boolean): Promise<void> {
    if (!context) return this.fail(job, 'The notification of this job no longer exists');
    const result = early ?? (await this.outcomeOf(context, finalAttempt));
    await this.finisher.finish(context, result, claimed);
  }

  /** The step's outcome; a template error, or any error on the final attempt, is a failed step with its detail. */
  private async outcomeOf(context: StepContext, finalAttempt: boolean): Promise<StepOutcome> {
    const handler = this.handlers.of(context.job.type)!;
    try {
      return await (context.job.runAt === null ? handler.start(context) : handler.resume(context));
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
   * Jobs whose run threw: a claimed one goes back (queued, or delayed when resuming) for the queue's
   * retry; on the final attempt each is failed instead. Returns the failures to report.
   */
  private async handBackAll(
    environmentId: string,
    entries: (Taken & { error?: unknown })[],
    finalAttempt: boolean,
    batchError: unknown,
  ): Promise<Failure[]> {
    const failures: Failure[] = [];
    for (const { job, claimed, error = batchError } of entries) {
      if (!finalAttempt) {
        if (claimed)
          await this.jobs.update(environmentId, job.id, { status: job.runAt !== null ? 'delayed' : 'queued' });
        failures.push({ jobId: job.id, error });
        continue;
      }
      // Reached only when even the outcome could not be recorded: the job must not stay open.
      await this.fail(job, `Unexpected error: ${errorMessage(error)}`);
    }
    return failures;
  }

  /** Fails a job whose outcome StepFinisher could not record. */
  private async fail(job: JobRow, error: string): Promise<void> {
    await this.jobs.update(job.environmentId, job.id, { status: 'failed', error });
    this.engineEvents.stepsFinished.emit({
      environmentId: job.environmentId,
      steps: [
        {
          jobId: job.id,
          notificationId: job.notificationId,
          transactionId: job.transactionId,
          type: job.type,
          status: 'failed',
        },
      ],
    });
  }

  /** Frees what the batch held: a duplicate queue entry may run its jobs again, another batch its slot. */
  private letGo({ release, jobIds, heartbeat }: Hold): void {
    clearInterval(heartbeat);
    for (const id of jobIds) this.inFlight.delete(id);
    release();
  }
}

interface Taken {
  job: JobRow;
  claimed: boolean;
}

/** What the read stage hands to finish. */
interface ReadBatch {
  environmentId: string;
  finalAttempt: boolean;
  /** The jobs taken, each with its context and the outcome decided without running its step, if any. */
  decided: Decided[];
  /** The jobs taken when their contexts or gates could not be read: finish hands each back with the error. */
  unread?: { taken: Taken[]; error: unknown };
  hold: Hold;
}

/** What a batch holds from its read to the end of its finish. */
interface Hold {
  /** Its slot in the environment's lane. */
  release: Release;
  /** Its jobs marked in flight. */
  jobIds: string[];
  /** Touches its claims. */
  heartbeat?: NodeJS.Timeout;
}

/** A taken job with its context (none: its notification is gone) and the outcome decided before its step runs. */
interface Decided extends Taken {
  context?: StepContext;
  early?: StepOutcome;
}

interface Failure {
  jobId: string;
  error: unknown;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The claim's condition (JobRepository.claimMany), read from a row. */
const isClaimable = (row: JobRow, now: Date) =>
  row.status === 'pending' ||
  row.status === 'queued' ||
  (row.status === 'delayed' && (row.runAt === null || row.runAt <= now));
