import { Inject, Injectable } from '@nestjs/common';
import { GroupCommit, type TriggerEventStatus } from '#common';
import {
  DATABASE,
  JobRepository,
  NotificationRepository,
  TriggerEventRepository,
  type Database,
  type DbExecutor,
  type TriggerEventRow,
  type WorkflowRow,
} from '#dal';
import { workerTransaction } from '../database/worker-transaction.js';
import { WORKER_GROUP_COMMIT } from '../database/worker-group-commit.js';
import { EngineEvents } from '../engine-events.js';
import { StepDispatch, type DueJob } from '../steps/step-dispatch.js';
import { buildJobs, buildNotifications, type Recipient } from './build-notification-jobs.js';

interface Chunk {
  event: TriggerEventRow;
  workflow: WorkflowRow;
  recipients: Recipient[];
}

/**
 * An event's states while its fan-out may write: `received` until a chunk before the last marks it
 * `processing` (the heartbeat of a fan-out long enough to have several), so a one-chunk event goes
 * from `received` to `done` in one write.
 */
const UNFINISHED: TriggerEventStatus[] = ['received', 'processing'];

/** Rolls a chunk's transaction back when its event was canceled meanwhile. */
class EventCanceled extends Error {}

/**
 * Writes a fan-out's chunks: notifications and their step jobs, then hands the first steps over
 * (StepDispatch). Each write touches its event (the fan-out's heartbeat for the recovery sweeper)
 * and writes nothing when the event was canceled meanwhile; a write answers whether the fan-out may
 * go on.
 */
@Injectable()
export class ChunkWriter {
  /** Last chunks of concurrent fan-outs (most events have only that one) commit together. */
  private readonly lastChunks = new GroupCommit<Chunk, boolean>(
    (environmentId, chunks) => this.writeLastChunks(environmentId, chunks),
    WORKER_GROUP_COMMIT,
  );

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly events: TriggerEventRepository,
    private readonly notifications: NotificationRepository,
    private readonly jobs: JobRepository,
    private readonly steps: StepDispatch,
    private readonly engineEvents: EngineEvents,
  ) {}

  /**
   * A chunk before the last, in a transaction of its own, so a large fan-out can have several in
   * flight: its event is touched last, so they hold the event row only while committing.
   */
  async write(chunk: Chunk): Promise<boolean> {
    const { event } = chunk;
    const queued = await workerTransaction(
      this.db,
      async (tx) => {
        const queued = await this.insert([chunk], tx);
        if (!(await this.events.transition(event.environmentId, event.id, UNFINISHED, 'processing', tx)))
          throw new EventCanceled();
        return queued;
      },
      { writesActivityOf: event.environmentId },
    ).catch((error: unknown) => {
      if (error instanceof EventCanceled) return undefined;
      throw error;
    });
    if (!queued) return false;
    await this.steps.dispatch(queued);
    this.written(chunk, false);
    return true;
  }

  /**
   * The last chunk (maybe empty) marks its event done, once every earlier chunk committed. Last
   * chunks of concurrent fan-outs share one transaction and one hand-over: a burst of single-recipient
   * triggers costs a few statements, not a few per trigger.
   */
  writeLast(chunk: Chunk): Promise<boolean> {
    return this.lastChunks.submit(chunk.event.environmentId, chunk);
  }

  private async writeLastChunks(environmentId: string, chunks: Chunk[]): Promise<boolean[]> {
    const queued: DueJob[] = [];
    const done = await workerTransaction(
      this.db,
      async (tx) => {
        // First: a cancel landing meanwhile waits for this commit, then cancels the jobs it wrote.
        const moved = await this.events.transitionMany(
          environmentId,
          chunks.map((chunk) => chunk.event.id),
          UNFINISHED,
          'done',
          tx,
        );
        queued.push(
          ...(await this.insert(
            chunks.filter((chunk) => moved.has(chunk.event.id)),
            tx,
          )),
        );
        return moved;
      },
      { writesActivityOf: environmentId },
    );
    await this.steps.dispatch(queued);
    for (const chunk of chunks) if (done.has(chunk.event.id)) this.written(chunk, true);
    return chunks.map((chunk) => done.has(chunk.event.id));
  }

  private written({ event, recipients }: Chunk, eventDone: boolean): void {
    this.engineEvents.notificationsWritten.emit({
      environmentId: event.environmentId,
      eventId: event.id,
      transactionId: event.transactionId,
      recipients: recipients.length,
      eventDone,
    });
  }

  /** The notifications of the chunks (one statement), then their jobs (one per workflow step); returns the queued jobs. */
  private async insert(chunks: Chunk[], tx: DbExecutor): Promise<DueJob[]> {
    const built = chunks
      .filter((chunk) => chunk.recipients.length > 0)
      .map((chunk) => ({ chunk, notifications: buildNotifications(chunk.event, chunk.workflow, chunk.recipients) }));
    if (built.length === 0) return [];
    // One chunk: its shared values go once as they are; several: the insert finds what they share.
    const [shared, rows] =
      built.length === 1
        ? [built[0].notifications.shared, built[0].notifications.rows]
        : [
            {},
            built.flatMap(({ notifications }) =>
              notifications.rows.map((row) => ({ ...notifications.shared, ...row })),
            ),
          ];
    const inserted = new Map((await this.notifications.insertBatch(rows, shared, tx)).map((row) => [row.id, row]));
    const steps = built.flatMap(({ chunk, notifications }) =>
      buildJobs(
        chunk.event,
        chunk.workflow,
        notifications.rows.flatMap((row) => inserted.get(row.id!) ?? []),
      ),
    );
    const inserts =
      built.length === 1
        ? steps.filter((step) => step.rows.length > 0)
        : [{ shared: {}, rows: steps.flatMap((step) => step.rows.map((row) => ({ ...step.shared, ...row }))) }];
    const queued: DueJob[] = [];
    for (const { shared: stepShared, rows: jobRows } of inserts) {
      for (const job of await this.jobs.insertBatch(jobRows, stepShared, tx))
        if (job.status === 'queued') queued.push(job);
    }
    return queued;
  }
}
