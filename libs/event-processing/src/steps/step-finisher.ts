import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { deliveries, GroupCommit, groupBy, LOGGER, newId } from '#common';
import {
  DELIVERY_EVENT_TYPES,
  deliveryEventType,
  messageEvents,
  NO_WEBHOOK_EVENTS,
  RealtimePublisher,
  WebhookOutbox,
  type RecordedEvents,
} from '#application';
import {
  asStoredMessage,
  DATABASE,
  ExecutionDetailRepository,
  JobRepository,
  MessageRepository,
  type Database,
  type DbExecutor,
  type JobRow,
  type NewExecutionDetailRow,
  type NewMessageRow,
} from '#dal';
import { workerTransaction } from '../database/worker-transaction.js';
import { WORKER_GROUP_COMMIT } from '../database/worker-group-commit.js';
import { EngineEvents } from '../engine-events.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { stepEntries } from '../queue/queue-entries.js';
import type { StepContext } from './step-context.js';
import type { StepDetail, StepOutcome } from './step-outcome.js';

interface Finished {
  context: StepContext;
  result: StepOutcome;
  claimed: boolean;
}

type ToQueue = { id: string; environmentId: string; transactionId: string; delayMs?: number };

/** What a commit stored: the outcomes it kept, the jobs that became due or wait, the webhook deliveries. */
interface Committed {
  kept: Finished[];
  toQueue: ToQueue[];
  webhookEvents: RecordedEvents;
}

/**
 * Records what step jobs decided, for each group of concurrently finishing jobs (group commit) in two
 * stages: `commit` writes the final statuses, messages, execution details and the next job of each
 * notification in one transaction with multi-row statements; `publish` then tells the inbox sockets
 * of the new messages and hands every job that became due or waits to the queue in one addBulk.
 */
@Injectable()
export class StepFinisher {
  private readonly batch = new GroupCommit<Finished>(
    async (environmentId, entries) => this.publish(environmentId, await this.commit(environmentId, entries)),
    WORKER_GROUP_COMMIT,
  );

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly jobs: JobRepository,
    private readonly details: ExecutionDetailRepository,
    private readonly messages: MessageRepository,
    private readonly queue: JobQueue,
    private readonly realtime: RealtimePublisher,
    private readonly outbox: WebhookOutbox,
    private readonly engineEvents: EngineEvents,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Resolves once the outcome is committed (and the next job handed to the queue). `claimed`: the
   * runner holds the job's claim; otherwise the outcome is written only if the row is still
   * claimable, and is dropped (with its messages and details) when another run took it first.
   */
  finish(context: StepContext, result: StepOutcome, claimed: boolean): Promise<void> {
    return this.batch.submit(context.job.environmentId, { context, result, claimed });
  }

  private async commit(environmentId: string, entries: Finished[]): Promise<Committed> {
    const toQueue: ToQueue[] = [];
    let kept: Finished[] = [];
    let webhookEvents = NO_WEBHOOK_EVENTS;
    await workerTransaction(
      this.db,
      async (tx) => {
        // A job that became due at its run's `now` is due at any later one.
        const now = new Date(Math.max(...entries.map(({ context }) => context.now.getTime())));
        const written = await this.jobs.setOutcomes(
          environmentId,
          entries
            .filter(({ result }) => !result.saved)
            .map(({ context, result, claimed }) => ({
              id: context.job.id,
              status: result.status,
              runAt: result.runAt,
              error: result.error || undefined,
              providerId: result.providerId || undefined,
              providerRetry: result.providerRetry,
              result: result.result,
              unclaimed: !claimed,
            })),
          now,
          tx,
        );
        // A step that saved its own row (digest) is kept only while the row exists: its subscriber's delete
        // erases the job, and must not find its details written afterwards.
        const saved = await this.jobs.existing(
          environmentId,
          entries.filter(({ result }) => result.saved).map(({ context }) => context.job.id),
          tx,
        );
        kept = entries.filter(({ context, result }) => (result.saved ? saved : written).has(context.job.id));
        const messages = kept.flatMap(({ result }) => result.messages ?? []);
        await this.messages.saveForJobs(messages, tx);
        webhookEvents = await this.recordDeliveryEvents(tx, messages, now);
        const detailRows = kept.flatMap(({ context }) =>
          context.details.map((detail) => detailRow(context.job, detail)),
        );
        const advancing: JobRow[] = [];
        for (const { context, result } of kept) {
          const { job } = context;
          if (result.status === 'delayed') {
            toQueue.push({
              id: job.id,
              environmentId,
              transactionId: job.transactionId,
              delayMs: Math.max(0, result.runAt!.getTime() - context.now.getTime()),
            });
          } else if (result.status === 'failed' && job.step.shouldStopOnFail) {
            // Rare: one statement pair per job is fine here.
            const rest = await this.jobs.findPendingAfter(environmentId, job.notificationId, job.stepIndex, tx);
            const canceled = await this.jobs.transition(
              environmentId,
              rest.map((other) => other.id),
              ['pending'],
              'canceled',
              tx,
            );
            const detail = `Step canceled: an earlier ${job.type} step failed and stops the workflow on failure`;
            detailRows.push(...canceled.map((other) => detailRow(other, { status: 'Warning', detail })));
          } else if (result.endsRun) {
            const rest = await this.jobs.findPendingAfter(environmentId, job.notificationId, job.stepIndex, tx);
            const skipped = await this.jobs.transition(
              environmentId,
              rest.map((other) => other.id),
              ['pending'],
              'skipped',
              tx,
            );
            detailRows.push(
              ...skipped.map((other) => detailRow(other, { status: 'Warning', detail: result.endsRun! })),
            );
          } else if (result.status !== 'merged') advancing.push(job);
        }
        toQueue.push(...(await this.jobs.queueNextMany(environmentId, advancing, tx)));
        await this.details.insertMany(detailRows, tx);
      },
      { writesActivityOf: environmentId },
    );
    return { kept, toQueue, webhookEvents };
  }

  /** message.sent and message.failed, one per message written, in the commit that writes them. */
  private async recordDeliveryEvents(tx: DbExecutor, written: NewMessageRow[], now: Date): Promise<RecordedEvents> {
    const [first] = written;
    if (!first) return NO_WEBHOOK_EVENTS;
    const build = () =>
      [...groupBy(written.map(asStoredMessage), deliveryEventType)].flatMap(([type, group]) =>
        messageEvents(type, group, now),
      );
    return this.outbox.recordWanted(tx, first.environmentId, DELIVERY_EVENT_TYPES, build, now);
  }

  private async publish(environmentId: string, { kept, toQueue, webhookEvents }: Committed): Promise<void> {
    void this.outbox.dispatch(environmentId, webhookEvents);
    for (const { result } of kept) if (result.messages) countDeliveries(result.messages);
    // Committed: the inbox sockets may learn of the new messages (not awaited). The rows in hand are
    // the rows stored: an in-app job's outcome and message are written together, and a job whose
    // outcome was written already is not kept, so no in-app row here met an earlier one.
    this.realtime.delivered(
      environmentId,
      kept.flatMap(({ result }) => result.messages ?? []).filter((message) => message.channel === 'in_app'),
    );
    if (this.logger.isLevelEnabled('info')) for (const entry of kept) this.logFinished(entry);
    await this.queue.addBulk('run-step', stepEntries(toQueue)).catch((error: unknown) => {
      // The rows say queued/delayed: the recovery sweeper enqueues them again.
      this.logger.warn(
        { err: error, jobIds: toQueue.map((job) => job.id) },
        'step enqueue failed; left to the recovery sweeper',
      );
    });
    if (kept.length > 0 && this.engineEvents.stepsFinished.observed) {
      this.engineEvents.stepsFinished.emit({
        environmentId,
        steps: kept.map(({ context: { job }, result }) => ({
          jobId: job.id,
          notificationId: job.notificationId,
          transactionId: job.transactionId,
          type: job.type,
          status: result.status,
        })),
      });
    }
  }

  private logFinished({ context, result }: Finished): void {
    const { job } = context;
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
  }
}

function detailRow(job: JobRow, detail: StepDetail): NewExecutionDetailRow {
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

/** Counts stored message outcomes in the `deliveries_total` metric (channel, provider, status). */
function countDeliveries(rows: NewMessageRow[]): void {
  for (const row of rows)
    deliveries.inc({ channel: row.channel, provider: row.providerId ?? 'none', status: row.status ?? 'sent' });
}
