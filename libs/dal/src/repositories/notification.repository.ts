import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { notifications, triggerEvents, type NewNotificationRow, type NotificationRow } from '../schema/index.js';
import { bulkInsert } from './bulk-insert.js';

/** One notification per (trigger event, subscriber). */
@Injectable()
export class NotificationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** A retried fan-out chunk inserts nothing twice: existing (event, subscriber) pairs are skipped and not returned. */
  async insertMany(rows: NewNotificationRow[], executor: DbExecutor = this.db): Promise<NotificationRow[]> {
    return bulkInsert<NewNotificationRow, NotificationRow>(executor, notifications, rows, { onConflictDoNothing: ['eventId', 'subscriberId'], returning: 'all' });
  }

  /** `insertMany` returning only the ids of the inserted rows: the fan-out's write. */
  async insertBatch(rows: NewNotificationRow[], executor: DbExecutor = this.db): Promise<Pick<NotificationRow, 'id' | 'subscriberId'>[]> {
    return bulkInsert(executor, notifications, rows, { onConflictDoNothing: ['eventId', 'subscriberId'], returning: ['id', 'subscriberId'] });
  }

  async findById(environmentId: string, id: string): Promise<NotificationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.id, id)))
      .limit(1);
    return row;
  }

  /** The notification with the request of its trigger event (actor, tenant), in one query for the step runner. */
  async findWithRequest(environmentId: string, id: string): Promise<{ notification: NotificationRow; request: Record<string, unknown> | null } | undefined> {
    const [row] = await this.db
      .select({ notification: notifications, request: triggerEvents.request })
      .from(notifications)
      .leftJoin(triggerEvents, eq(triggerEvents.id, notifications.eventId))
      .where(and(eq(notifications.environmentId, environmentId), eq(notifications.id, id)))
      .limit(1);
    return row;
  }

  /** `findWithRequest` for many notifications of one environment. */
  async findManyWithRequest(environmentId: string, ids: string[]): Promise<{ notification: NotificationRow; request: Record<string, unknown> | null }[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({ notification: notifications, request: triggerEvents.request })
      .from(notifications)
      .leftJoin(triggerEvents, eq(triggerEvents.id, notifications.eventId))
      .where(and(eq(notifications.environmentId, environmentId), inArray(notifications.id, ids)));
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
