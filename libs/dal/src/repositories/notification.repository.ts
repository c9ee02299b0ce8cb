import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  notificationIdOf,
  notifications,
  triggerEvents,
  type NewNotificationRow,
  type NotificationRow,
} from '../schema/index.js';
import { findNotificationTriggers, type NotificationTrigger } from './notification-triggers.js';
import { bulkInsert, checkOnly } from './table-sql.js';

/** What a step needs of its notification's trigger: the actor, tenant, payload and overrides it was sent with. */
export type NotificationTriggerContext = NotificationTrigger;

/**
 * A notification as tests and seeds write it. A notification has no payload of its own (its trigger
 * event holds it): a given `payload` is written to the trigger event `eventId`, created with the
 * notification's transaction and workflow when it does not exist.
 */
export type NotificationSeed = NewNotificationRow & { payload?: Record<string, unknown> };

/** One notification per (trigger event, subscriber). */
@Injectable()
export class NotificationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Existing (event, subscriber) pairs are skipped and not returned. */
  async insertMany(rows: NotificationSeed[], executor: DbExecutor = this.db): Promise<NotificationRow[]> {
    const events = rows.flatMap(({ payload, eventId, environmentId, organizationId, transactionId, workflowId }) =>
      payload === undefined
        ? []
        : [
            {
              id: eventId,
              environmentId,
              organizationId,
              transactionId,
              workflowId,
              request: { payload },
              status: 'done',
            },
          ],
    );
    if (events.length > 0) await executor.insert(triggerEvents).values(events).onConflictDoNothing();
    const notificationRows = rows.map(({ payload: _payload, ...row }) => ({
      ...row,
      id: notificationIdOf(row.eventId, row.subscriberId),
    }));
    return bulkInsert<NewNotificationRow, NotificationRow>(executor, notifications, notificationRows, {
      onConflictDoNothing: ['id'],
      returning: 'all',
    });
  }

  /**
   * The fan-out's write: rows completed by the values they share (event, workflow, channels), sent
   * once; returns only the ids of the rows inserted. A subscriber deleted since the fan-out read it gets
   * none: its delete erased its activity, and the chunk's transaction, which waited for that delete
   * (activityWriteLock), sees it deleted.
   */
  async insertBatch(
    rows: Partial<NewNotificationRow>[],
    shared: Partial<NewNotificationRow>,
    executor: DbExecutor = this.db,
  ): Promise<Pick<NotificationRow, 'id' | 'subscriberId'>[]> {
    return bulkInsert(executor, notifications, rows, {
      shared,
      // A scalar subquery: one primary-key probe per row, never a join the planner could turn into a scan.
      where: (value) => sql`(SELECT NOT s.deleted FROM subscribers s WHERE s.id = ${value('subscriberId')}) IS TRUE`,
      onConflictDoNothing: ['id'],
      returning: ['id', 'subscriberId'],
    });
  }

  /**
   * What a step needs of its notification: that it exists, and the actor, tenant, payload and
   * overrides of its trigger (read from the trigger event, once per event). The step runner reads it
   * for a whole batch at once.
   */
  async findTriggerContexts(environmentId: string, ids: string[]): Promise<NotificationTriggerContext[]> {
    return [...(await findNotificationTriggers(this.db, environmentId, ids)).values()];
  }

  /**
   * The payloads of the notifications folded into a digest whose master notification is
   * `digestedNotificationId`, oldest first: each from its trigger event ({} when the event is gone).
   * With the master's own payload first, they are the digest's `step.events` (a digest job keeps no
   * copy of them); migration 0006's digest_event_payloads derives the same for the activity feed.
   */
  async findDigestedPayloads(
    environmentId: string,
    digestedNotificationId: string,
    executor: DbExecutor = this.db,
  ): Promise<Record<string, unknown>[]> {
    const result = await executor.execute<{ payload: Record<string, unknown> }>(sql`
      SELECT COALESCE(e.request -> 'payload', '{}'::jsonb) AS payload
      FROM notifications n
      LEFT JOIN trigger_events e ON e.id = n.event_id AND e.environment_id = n.environment_id
      WHERE n.digested_notification_id = ${digestedNotificationId} AND ${checkOnly(sql`n.environment_id = ${environmentId}`)}
      ORDER BY n.created_at, n.id`);
    return result.rows.map((row) => row.payload);
  }

  /** How many notifications were folded into the digest of `digestedNotificationId`. */
  async countDigested(
    environmentId: string,
    digestedNotificationId: string,
    executor: DbExecutor = this.db,
  ): Promise<number> {
    const result = await executor.execute<{ count: number }>(sql`
      SELECT count(*)::int AS count FROM notifications n
      WHERE n.digested_notification_id = ${digestedNotificationId} AND ${checkOnly(sql`n.environment_id = ${environmentId}`)}`);
    return result.rows[0].count;
  }

  async markDigested(
    environmentId: string,
    ids: string[],
    digestedNotificationId: string,
    executor: DbExecutor = this.db,
  ): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .update(notifications)
      .set({ digestedNotificationId, updatedAt: new Date() })
      .where(and(eq(notifications.environmentId, environmentId), inArray(notifications.id, ids)));
  }
}
