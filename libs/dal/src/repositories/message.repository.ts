import { Inject, Injectable } from '@nestjs/common';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { exactContextKeys } from './context-keys.js';
import { messageIdOf, messages, type MessageRow, type NewMessageRow } from '../schema/index.js';
import { findNotificationTriggers, type TriggerFields } from './notification-triggers.js';
import { bulkInsert, newestFirst } from './table-sql.js';

export const MARK_AS_VALUES = ['read', 'seen', 'unread', 'unseen'] as const;
export type MarkAs = (typeof MARK_AS_VALUES)[number];

export interface MessageListFilter {
  /** Internal subscriber id. */
  subscriberId?: string;
  channel?: string;
  transactionId?: string;
  /** Exactly these contexts (`type:id`), in any order. */
  contextKeys?: string[];
}

/** A message as the API shows it: the row and its trigger's payload and overrides (kept once, on the trigger event). */
export type MessageView = MessageRow & TriggerFields;

/** What a delete tells its caller about each message it removed. */
export interface DeletedMessage {
  /** Internal subscriber id. */
  subscriberId: string;
  channel: string;
  contextKeys: string[];
}

export interface FeedFilter {
  read?: boolean;
  seen?: boolean;
}

/** The columns a new message row may leave out, at their table defaults. */
type MessageDefaults = Omit<
  MessageRow,
  'id' | 'environmentId' | 'organizationId' | 'notificationId' | 'subscriberId' | 'transactionId' | 'channel'
>;

function messageDefaults(): MessageDefaults {
  const now = new Date();
  return {
    jobId: null,
    workflowId: null,
    templateIdentifier: null,
    deliveryKey: '',
    subject: null,
    title: null,
    content: null,
    cta: {},
    read: false,
    seen: false,
    lastReadDate: null,
    lastSeenDate: null,
    deliveredAt: [],
    snoozedUntil: null,
    archived: false,
    archivedAt: null,
    tags: [],
    severity: 'none',
    data: null,
    status: 'sent',
    errorId: null,
    errorText: null,
    providerId: null,
    deviceTokens: null,
    email: null,
    phone: null,
    directWebhookUrl: null,
    contextKeys: [],
    feedId: null,
    deleted: false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A new row as the table stores it once inserted, defaults applied, so that what was just written
 * can be published without reading it back. Exact when the row sets its own timestamps.
 */
export function asStoredMessage(row: NewMessageRow): MessageRow {
  const stored: Record<string, unknown> = messageDefaults();
  for (const [key, value] of Object.entries(row)) if (value !== undefined) stored[key] = value;
  return stored as MessageRow;
}

/** A job's message has the id of its (job, deliveryKey): written again, it is the same row. */
const withDerivedId = (row: NewMessageRow): NewMessageRow =>
  row.jobId ? { ...row, id: messageIdOf(row.jobId, row.deliveryKey ?? '') } : row;

@Injectable()
export class MessageRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Exactly-once per (job, deliveryKey): rows that already exist are skipped and not returned. */
  async insertMany(rows: NewMessageRow[], executor: DbExecutor = this.db): Promise<MessageRow[]> {
    return bulkInsert<NewMessageRow, MessageRow>(executor, messages, rows.map(withDerivedId), {
      onConflictDoNothing: ['id'],
      returning: 'all',
    });
  }

  /**
   * The step finisher's write, exactly one row per (job, deliveryKey): a row an earlier run of the
   * job left (an error before a retry) takes the new outcome.
   */
  async saveForJobs(rows: NewMessageRow[], executor: DbExecutor = this.db): Promise<void> {
    await bulkInsert(executor, messages, rows.map(withDerivedId), {
      onConflictUpdate: {
        target: ['id'],
        set: ['status', 'errorId', 'errorText', 'providerId', 'deliveredAt', 'updatedAt'],
      },
    });
  }

  async findByJob(environmentId: string, jobId: string): Promise<MessageRow[]> {
    return this.db
      .select()
      .from(messages)
      .where(and(eq(messages.environmentId, environmentId), eq(messages.jobId, jobId)))
      .orderBy(messages.deliveryKey);
  }

  /** Page-numbered, newest first; one extra row tells whether another page exists (no COUNT). */
  async list(
    environmentId: string,
    filter: MessageListFilter,
    page: number,
    limit: number,
  ): Promise<{ rows: MessageView[]; hasMore: boolean }> {
    const conditions: (SQL | undefined)[] = [eq(messages.environmentId, environmentId), eq(messages.deleted, false)];
    if (filter.subscriberId) conditions.push(eq(messages.subscriberId, filter.subscriberId));
    if (filter.channel) conditions.push(eq(messages.channel, filter.channel));
    if (filter.transactionId) conditions.push(eq(messages.transactionId, filter.transactionId));
    if (filter.contextKeys?.length) conditions.push(exactContextKeys(filter.contextKeys));
    return this.page(environmentId, and(...conditions), page, limit);
  }

  /** A subscriber's in-app feed, newest first. */
  async feed(
    environmentId: string,
    subscriberId: string,
    filter: FeedFilter,
    page: number,
    limit: number,
  ): Promise<{ rows: MessageView[]; hasMore: boolean }> {
    const conditions: (SQL | undefined)[] = [this.inApp(environmentId, subscriberId)];
    if (filter.read !== undefined) conditions.push(eq(messages.read, filter.read));
    if (filter.seen !== undefined) conditions.push(eq(messages.seen, filter.seen));
    return this.page(environmentId, and(...conditions), page, limit);
  }

  /** In-app messages that are seen (or not), counted up to `limit` as Novu's feed counter is. */
  async countBySeen(environmentId: string, subscriberId: string, seen: boolean, limit: number): Promise<number> {
    const capped = this.db
      .select({ one: sql`1` })
      .from(messages)
      .where(and(this.inApp(environmentId, subscriberId), eq(messages.seen, seen)))
      .limit(limit)
      .as('capped');
    const [{ total }] = await this.db.select({ total: count() }).from(capped);
    return total;
  }

  /** The deleted message's subscriber and channel; none when there was no such message. */
  async softDelete(environmentId: string, id: string, executor: DbExecutor = this.db): Promise<MessageRow[]> {
    return executor
      .update(messages)
      .set({ deleted: true, updatedAt: sql`now()` })
      .where(and(eq(messages.environmentId, environmentId), eq(messages.id, id), eq(messages.deleted, false)))
      .returning();
  }

  /** Soft-deletes a transaction's messages, of one channel when given; answers each one's subscriber and channel. */
  async softDeleteByTransaction(
    environmentId: string,
    transactionId: string,
    channel?: string,
    executor: DbExecutor = this.db,
  ): Promise<MessageRow[]> {
    return executor
      .update(messages)
      .set({ deleted: true, updatedAt: sql`now()` })
      .where(
        and(
          eq(messages.environmentId, environmentId),
          eq(messages.transactionId, transactionId),
          channel === undefined ? undefined : eq(messages.channel, channel),
          eq(messages.deleted, false),
        ),
      )
      .returning();
  }

  private inApp(environmentId: string, subscriberId: string): SQL | undefined {
    return and(
      eq(messages.environmentId, environmentId),
      eq(messages.subscriberId, subscriberId),
      eq(messages.channel, 'in_app'),
      eq(messages.deleted, false),
    );
  }

  private async page(
    environmentId: string,
    where: SQL | undefined,
    page: number,
    limit: number,
  ): Promise<{ rows: MessageView[]; hasMore: boolean }> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(where)
      .orderBy(...newestFirst(messages.createdAt, messages.id))
      .limit(limit + 1)
      .offset(page * limit);
    return { rows: await this.withTriggerFields(environmentId, rows.slice(0, limit)), hasMore: rows.length > limit };
  }

  /** The rows with their notifications' trigger payload and overrides, read in one statement for all of them. */
  private async withTriggerFields(environmentId: string, rows: MessageRow[]): Promise<MessageView[]> {
    const triggers = await findNotificationTriggers(this.db, environmentId, [
      ...new Set(rows.map((row) => row.notificationId)),
    ]);
    return rows.map((row) => {
      const trigger = triggers.get(row.notificationId);
      return Object.assign(row, { payload: trigger?.payload ?? {}, overrides: trigger?.overrides ?? {} });
    });
  }
}
