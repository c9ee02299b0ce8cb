import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { notifications, type NewNotificationRow, type NotificationRow } from '../schema/index.js';
import { bulkInsert, checkOnly, uuids } from './table-sql.js';

export interface NotificationTriggerContext {
  id: string;
  /** The trigger's `actor` and `tenant` as sent (null when absent). */
  actor: unknown;
  tenant: unknown;
}

/** One notification per (trigger event, subscriber). */
@Injectable()
export class NotificationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** A retried fan-out chunk inserts nothing twice: existing (event, subscriber) pairs are skipped and not returned. */
  async insertMany(rows: NewNotificationRow[], executor: DbExecutor = this.db): Promise<NotificationRow[]> {
    return bulkInsert<NewNotificationRow, NotificationRow>(executor, notifications, rows, { onConflictDoNothing: ['eventId', 'subscriberId'], returning: 'all' });
  }

  /**
   * The fan-out's write: rows completed by the values they share (event, workflow, payload), sent
   * once; returns only the ids of the rows inserted.
   */
  async insertBatch(
    rows: Partial<NewNotificationRow>[],
    shared: Partial<NewNotificationRow>,
    executor: DbExecutor = this.db,
  ): Promise<Pick<NotificationRow, 'id' | 'subscriberId'>[]> {
    return bulkInsert(executor, notifications, rows, { shared, onConflictDoNothing: ['eventId', 'subscriberId'], returning: ['id', 'subscriberId'] });
  }

  async findById(environmentId: string, id: string): Promise<NotificationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.id, id)))
      .limit(1);
    return row;
  }

  /**
   * What a step needs of its notification: that it exists, and the actor and tenant its trigger
   * named. Raw and narrow: the step runner reads it for a whole batch at once.
   */
  async findTriggerContexts(environmentId: string, ids: string[]): Promise<NotificationTriggerContext[]> {
    if (ids.length === 0) return [];
    // The event is read per notification (a topic's share one), by key, whatever the planner's statistics.
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT n.id,
        (SELECT e.request -> 'actor' FROM trigger_events e WHERE e.id = n.event_id) AS actor,
        (SELECT e.request -> 'tenant' FROM trigger_events e WHERE e.id = n.event_id) AS tenant
      FROM notifications n
      WHERE n.id = ANY(${uuids(ids)}) AND ${checkOnly(sql`n.environment_id = ${environmentId}`)}`);
    return result.rows as unknown as NotificationTriggerContext[];
  }

  async findByEvent(environmentId: string, eventId: string): Promise<NotificationRow[]> {
    return this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.eventId, eventId)))
      .orderBy(asc(notifications.createdAt));
  }

  async findByTransaction(environmentId: string, transactionId: string): Promise<NotificationRow[]> {
    return this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.transactionId, transactionId)))
      .orderBy(asc(notifications.createdAt));
  }

  /** Notifications folded into a digest whose master notification is `digestedNotificationId`. */
  async findDigestedInto(environmentId: string, digestedNotificationId: string, executor: DbExecutor = this.db): Promise<NotificationRow[]> {
    return executor
      .select()
      .from(notifications)
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.digestedNotificationId, digestedNotificationId)))
      .orderBy(asc(notifications.createdAt), asc(notifications.id));
  }

  async markDigested(environmentId: string, ids: string[], digestedNotificationId: string, executor: DbExecutor = this.db): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .update(notifications)
      .set({ digestedNotificationId, updatedAt: new Date() })
      .where(and(eq(notifications.environmentId, environmentId), inArray(notifications.id, ids)));
  }
}
