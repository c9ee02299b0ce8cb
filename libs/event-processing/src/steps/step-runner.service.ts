import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, Clock, LOGGER, newId } from '#common';
import { countDeliveries } from './delivery-metrics.js';
import { TemplateRenderError } from '#application';
import { DATABASE, ExecutionDetailRepository, JobRepository, MessageRepository, type Database, type JobRow } from '#dal';
import { workerTransaction } from '../database/worker-transaction.js';
import { Batcher } from '../database/batcher.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { ChannelStep } from './channel-step.js';
import { finishDelay, startDelay } from './delay-step.js';
import { DigestStep } from './digest-step.js';
import { StepContextLoader, record, type StepContext } from './step-context.js';
import { isChannel, StepGates } from './step-gates.js';
import { outcome, type StepOutcome } from './step-outcome.js';

/**
 * Runs one step job: claim it, check filters/preferences/schedule, run the step, record the
 * execution details and final status, then queue the next job of the notification.
 */
@Injectable()
export class StepRunner {
  /** Claims of concurrent step jobs share one UPDATE (and one commit) per environment. */
  private readonly claims = new Batcher<{ id: string; now: Date }, JobRow>(
    async (environmentId, keys) => {
      // The earliest `now` of the batch: a job due for it is due for every later caller too.
      const now = new Date(Math.min(...keys.map((key) => key.now.getTime())));
      const rows = await this.jobs.claimMany(environmentId, keys.map((key) => key.id), now);
      return new Map(rows.map((row) => [row.id, row]));
    },
    (key) => key.id,
    true,
  );

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly jobs: JobRepository,
    private readonly details: ExecutionDetailRepository,
    private readonly messages: MessageRepository,
    private readonly loader: StepContextLoader,
    private readonly gates: StepGates,
    private readonly channel: ChannelStep,
    private readonly digest: DigestStep,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `finalAttempt`: an unexpected error fails the job instead of being retried by the queue. */
  async run(environmentId: string, jobId: string, finalAttempt: boolean): Promise<void> {
    const now = this.clock.now();
    // A finished, running or not yet due job is simply not returned.
    const job = await this.claims.load(environmentId, { id: jobId, now });
    if (!job) return this.requeueIfEarly(environmentId, jobId, now);
    // Only a waiting step (delay, digest window, schedule hold) sets runAt: a claimed job with one is
    // resuming, also when the sweeper re-queued it after its worker died mid-resume.
    const resumed = job.runAt !== null;
    const heartbeat = setInterval(
      () => void this.jobs.touchRunning(environmentId, jobId).catch(() => undefined),
      (this.config.recoveryGraceSeconds * 1000) / 3,
    );
    heartbeat.unref();
    try {
      const context = await this.loader.load(job, now);
      if (!context) {
        await this.jobs.update(environmentId, jobId, { status: 'failed', error: 'The notification of this job no longer exists' });
        return;
      }
      let result: StepOutcome;
      try {
        result = await this.execute(context, resumed);
      } catch (error) {
        if (error instanceof TemplateRenderError) {
          record(context, { status: 'Failed', source: 'Payload', detail: error.message });
          result = outcome.failed(error.message);
        } else if (finalAttempt) {
          const message = error instanceof Error ? error.message : String(error);
          record(context, { status: 'Failed', detail: `Unexpected error: ${message}` });
          result = outcome.failed(message);
        } else {
          // Hand the job back so the queue's retry can claim it again.
          await this.jobs.update(environmentId, jobId, { status: resumed ? 'delayed' : 'queued' });
          throw error;
        }
      }
      await this.finish(context, result);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * A queue entry that comes before the row is due (clock skew between hosts) would otherwise leave
   * the job to the recovery sweeper: add it again for the time that remains.
   */
  private async requeueIfEarly(environmentId: string, jobId: string, now: Date): Promise<void> {
    const row = await this.jobs.findById(environmentId, jobId);
    if (row?.status !== 'delayed' || !row.runAt || row.runAt <= now) return;
    await this.queue.add('run-step', { jobId, environmentId }, { delay: row.runAt.getTime() - now.getTime() });
  }

  private async execute(context: StepContext, resumed: boolean): Promise<StepOutcome> {
    const { job } = context;
    if (!context.subscriber) {
      record(context, { status: 'Failed', detail: 'Subscriber no longer exists: step canceled' });
      return outcome.canceled();
    }
    if (job.type === 'delay') return resumed ? finishDelay(context) : this.gated(context, () => startDelay(context));
    if (job.type === 'digest') return resumed ? this.digest.release(context) : this.gated(context, () => this.digest.start(context));
    if (isChannel(job.type)) return resumed ? this.channel.run(context) : this.gated(context, () => this.channel.run(context));
    record(context, { status: 'Failed', detail: `Unknown step type ${job.type}` });
    return outcome.failed(`Unknown step type ${job.type}`);
  }

  private async gated(context: StepContext, run: () => StepOutcome | Promise<StepOutcome>): Promise<StepOutcome> {
    return (await this.gates.check(context)) ?? run();
  }

  private async finish(context: StepContext, result: StepOutcome): Promise<void> {
    const { job } = context;
    const env = job.environmentId;
    const toQueue: { job: JobRow; delayMs?: number }[] = [];
    // One transaction for every write of the step: status, messages, details, next job.
    await workerTransaction(this.db, async (tx) => {
      if (result.messages) await this.messages.insertMany(result.messages, tx);
      if (!result.saved) {
        await this.jobs.update(
          env,
          job.id,
          {
            status: result.status,
            ...(result.runAt ? { runAt: result.runAt } : {}),
            ...(result.error ? { error: result.error } : {}),
            ...(result.providerId ? { providerId: result.providerId } : {}),
          },
          tx,
        );
      }
      const detailRows = context.details.map((detail) => this.detailRow(job, detail));
      if (result.status === 'delayed') {
        toQueue.push({ job, delayMs: Math.max(0, result.runAt!.getTime() - context.now.getTime()) });
      } else if (result.status === 'failed' && job.step.shouldStopOnFail) {
        const rest = await this.jobs.findPendingAfter(env, job.notificationId, job.stepIndex, tx);
        const canceled = await this.jobs.transition(env, rest.map((other) => other.id), ['pending'], 'canceled', tx);
        const detail = `Step canceled: an earlier ${job.type} step failed and stops the workflow on failure`;
        detailRows.push(...canceled.map((other) => this.detailRow(other, { status: 'Warning', detail })));
      } else if (result.status !== 'merged') {
        const queued = await this.jobs.queueNext(env, job.notificationId, job.stepIndex, tx);
        if (queued) toQueue.push({ job: queued });
      }
      await this.details.insertMany(detailRows, tx);
    });
    if (result.messages) countDeliveries(result.messages);
    this.logger.info(
      {
        transactionId: job.transactionId,
        notificationId: job.notificationId,
        jobId: job.id,
        subscriberId: context.subscriber?.subscriberId,
        step: job.type,
        status: result.status,
        providerId: result.providerId,
        messageIds: result.messages?.map((message) => message.id),
      },
      'step finished',
    );
    for (const entry of toQueue) {
      await this.queue.add('run-step', { jobId: entry.job.id, environmentId: env }, entry.delayMs ? { delay: entry.delayMs } : undefined).catch((error: unknown) => {
        // The row says queued/delayed: the recovery sweeper enqueues it again.
        this.logger.warn({ err: error, transactionId: entry.job.transactionId, jobId: entry.job.id }, 'step enqueue failed; left to the recovery sweeper');
      });
    }
  }

  private detailRow(job: JobRow, detail: StepContext['details'][number]) {
    return {
      id: newId(),
      environmentId: job.environmentId,
      organizationId: job.organizationId,
      jobId: job.id,
      notificationId: job.notificationId,
      subscriberId: job.subscriberId,
      status: detail.status,
      detail: detail.detail,
      source: detail.source ?? 'Internal',
      providerId: detail.providerId ?? null,
      raw: detail.raw ?? null,
      isRetry: detail.isRetry ?? false,
    };
  }
}
