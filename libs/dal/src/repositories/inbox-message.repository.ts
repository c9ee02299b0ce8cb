import { Inject, Injectable } from '@nestjs/common';
import {
  and,
  arrayOverlaps,
  count,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { messages, type MessageRow, type NewMessageRow } from '../schema/index.js';
import type { MessageView } from './message.repository.js';
import { exactContextKeys } from './context-keys.js';
import { findNotificationTriggers } from './notification-triggers.js';
import { newestFirst, uuids } from './table-sql.js';

/** Which of a subscriber's in-app messages an inbox operation reads or changes; a field left out matches any value. */
export interface InboxFilter {
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  snoozed?: boolean;
  /** Messages carrying any of these tags. */
  tags?: string[];
  severity?: string[];
  /** Messages whose data contains this object. */
  data?: Record<string, unknown>;
  createdGte?: Date;
  createdLte?: Date;
  ids?: string[];
  /** Messages of these feeds (Novu's v1 feedIdentifier). */
  feedIds?: string[];
  /** Messages sent with exactly these contexts (`type:id`, any order); `[]` is messages sent without one. */
  contextKeys?: string[];
}

/** The changes a state transition writes; `deliveredAt` appends one entry. */
export type InboxChanges = Partial<
  Pick<
    NewMessageRow,
    'read' | 'seen' | 'archived' | 'archivedAt' | 'lastReadDate' | 'lastSeenDate' | 'snoozedUntil' | 'cta'
  >
> & { deliveredAt?: string };

/**
 * The columns an inbox page shows, 17 of a message's 39: a page is the inbox's most frequent read, and
 * each column costs the query builder, the driver and the row mapping on every request.
 */
const INBOX_PAGE_COLUMNS = {
  id: messages.id,
  transactionId: messages.transactionId,
  subject: messages.subject,
  content: messages.content,
  read: messages.read,
  seen: messages.seen,
  archived: messages.archived,
  snoozedUntil: messages.snoozedUntil,
  deliveredAt: messages.deliveredAt,
  createdAt: messages.createdAt,
  lastReadDate: messages.lastReadDate,
  lastSeenDate: messages.lastSeenDate,
  archivedAt: messages.archivedAt,
  cta: messages.cta,
  tags: messages.tags,
  data: messages.data,
  severity: messages.severity,
};

/** A message as an inbox page lists it. */
export type InboxPageMessage = Pick<MessageRow, keyof typeof INBOX_PAGE_COLUMNS>;

/** What an inbox badge shows: unseen messages, and unread ones in all and per severity. */
export interface InboxBadgeCounts {
  unseen: number;
  unread: { total: number; severity: Record<string, number> };
}

/** The badge counts of one subscriber's messages of one context (sorted keys). */
export interface InboxBadgeGroup {
  subscriberId: string;
  contextKeys: string[];
  counts: InboxBadgeCounts;
}

export const emptyBadgeCounts = (): InboxBadgeCounts => ({ unseen: 0, unread: { total: 0, severity: {} } });

/** A subscriber's in-app messages as Novu's v2 inbox routes read and change them. */
@Injectable()
export class InboxMessageRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findOne(environmentId: string, subscriberId: string, id: string): Promise<MessageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(this.inApp(environmentId, subscriberId), eq(messages.id, id)));
    return row;
  }

  /** Newest first; `after` is the id of the last message of the previous page. One extra row tells hasMore. */
  async list(
    environmentId: string,
    subscriberId: string,
    filter: InboxFilter,
    page: { limit: number; after?: string; offset?: number },
  ): Promise<{ rows: InboxPageMessage[]; hasMore: boolean }> {
    const conditions = [this.where(environmentId, subscriberId, filter)];
    if (page.after) {
      const anchor = await this.findOne(environmentId, subscriberId, page.after);
      if (!anchor) return { rows: [], hasMore: false };
      conditions.push(
        or(
          lt(messages.createdAt, anchor.createdAt),
          and(eq(messages.createdAt, anchor.createdAt), lt(messages.id, anchor.id)),
        ),
      );
    }
    const rows = await this.db
      .select(INBOX_PAGE_COLUMNS)
      .from(messages)
      .where(and(...conditions))
      .orderBy(...newestFirst(messages.createdAt, messages.id))
      .limit(page.limit + 1)
      .offset(page.after ? 0 : (page.offset ?? 0));
    return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  async count(environmentId: string, subscriberId: string, filter: InboxFilter): Promise<number> {
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(messages)
      .where(this.where(environmentId, subscriberId, filter));
    return total;
  }

  /** One UPDATE for every message matching the filter (snoozed and archived ones only when it says so). */
  async update(
    environmentId: string,
    subscriberId: string,
    filter: InboxFilter,
    changes: InboxChanges,
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<MessageRow[]> {
    const { deliveredAt, ...set } = changes;
    return executor
      .update(messages)
      .set({
        ...set,
        ...(deliveredAt ? { deliveredAt: sql`array_append(${messages.deliveredAt}, ${deliveredAt}::text)` } : {}),
        updatedAt: now,
      })
      .where(this.where(environmentId, subscriberId, filter))
      .returning();
  }

  /** Soft delete: the messages leave every list, feed and count. Returns the deleted rows. */
  async delete(
    environmentId: string,
    subscriberId: string,
    filter: InboxFilter,
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<MessageRow[]> {
    return executor
      .update(messages)
      .set({ deleted: true, updatedAt: now })
      .where(this.where(environmentId, subscriberId, filter))
      .returning();
  }

  /**
   * Ends a snooze that is still the one scheduled (`until`): a message unsnoozed or snoozed again
   * since then is left alone. Its return counts as a new delivery.
   */
  async wake(
    environmentId: string,
    id: string,
    until: Date,
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<MessageRow | undefined> {
    const [row] = await executor
      .update(messages)
      .set({
        snoozedUntil: null,
        deliveredAt: sql`array_append(${messages.deliveredAt}, ${now.toISOString()}::text)`,
        updatedAt: now,
      })
      .where(
        and(
          eq(messages.environmentId, environmentId),
          eq(messages.id, id),
          eq(messages.deleted, false),
          eq(messages.snoozedUntil, until),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Ends every snooze that was due before `dueBefore` and is still in place (its queued wake-up was lost),
   * up to `limit` of them, oldest first; returns the messages that came back.
   */
  async wakeOverdue(dueBefore: Date, now: Date, limit: number): Promise<MessageRow[]> {
    const overdue = this.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(lt(messages.snoozedUntil, dueBefore), eq(messages.deleted, false)))
      .orderBy(messages.snoozedUntil)
      .limit(limit);
    const woken = await this.db
      .update(messages)
      .set({
        snoozedUntil: null,
        deliveredAt: sql`array_append(${messages.deliveredAt}, ${now.toISOString()}::text)`,
        updatedAt: now,
      })
      .where(and(inArray(messages.id, overdue), isNotNull(messages.snoozedUntil)))
      .returning();
    return woken;
  }

  /** The rows as the v1 message routes show them: with their trigger's payload and overrides, read in one statement. */
  async withTriggerFields(environmentId: string, rows: MessageRow[]): Promise<MessageView[]> {
    const triggers = await findNotificationTriggers(this.db, environmentId, [
      ...new Set(rows.map((row) => row.notificationId)),
    ]);
    return rows.map((row) => {
      const trigger = triggers.get(row.notificationId);
      return Object.assign(row, { payload: trigger?.payload ?? {}, overrides: trigger?.overrides ?? {} });
    });
  }

  /**
   * The badge counts of several subscribers per context, in one grouped statement, over what the
   * inbox's default tab shows (neither archived nor snoozed). Only contexts with something unseen or
   * unread appear.
   */
  async badgeCounts(environmentId: string, subscriberIds: string[]): Promise<InboxBadgeGroup[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await this.db
      .select({
        subscriberId: messages.subscriberId,
        contextKeys: messages.contextKeys,
        severity: messages.severity,
        unseen: sql<number>`count(*) filter (where not ${messages.seen})::int`,
        unread: sql<number>`count(*) filter (where not ${messages.read})::int`,
      })
      .from(messages)
      .where(
        and(
          eq(messages.environmentId, environmentId),
          inArray(messages.subscriberId, subscriberIds),
          eq(messages.channel, 'in_app'),
          eq(messages.deleted, false),
          eq(messages.archived, false),
          isNull(messages.snoozedUntil),
          or(eq(messages.seen, false), eq(messages.read, false)),
        ),
      )
      .groupBy(messages.subscriberId, messages.contextKeys, messages.severity);
    const groups = new Map<string, InboxBadgeGroup>();
    for (const row of rows) {
      const contextKeys = [...row.contextKeys].sort();
      const key = `${row.subscriberId}|${contextKeys.join(',')}`;
      let group = groups.get(key);
      if (!group) {
        group = { subscriberId: row.subscriberId, contextKeys, counts: emptyBadgeCounts() };
        groups.set(key, group);
      }
      group.counts.unseen += row.unseen;
      group.counts.unread.total += row.unread;
      group.counts.unread.severity[row.severity] = (group.counts.unread.severity[row.severity] ?? 0) + row.unread;
    }
    return [...groups.values()];
  }

  private inApp(environmentId: string, subscriberId: string): SQL | undefined {
    return and(
      eq(messages.environmentId, environmentId),
      eq(messages.subscriberId, subscriberId),
      eq(messages.channel, 'in_app'),
      eq(messages.deleted, false),
    );
  }

  private where(environmentId: string, subscriberId: string, filter: InboxFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [this.inApp(environmentId, subscriberId)];
    if (filter.ids) conditions.push(sql`${messages.id} = ANY(${uuids(filter.ids)})`);
    if (filter.feedIds) conditions.push(sql`${messages.feedId} = ANY(${sql.param(filter.feedIds)}::text[])`);
    if (filter.read !== undefined) conditions.push(eq(messages.read, filter.read));
    if (filter.seen !== undefined) conditions.push(eq(messages.seen, filter.seen));
    if (filter.archived !== undefined) conditions.push(eq(messages.archived, filter.archived));
    if (filter.snoozed !== undefined)
      conditions.push(filter.snoozed ? isNotNull(messages.snoozedUntil) : isNull(messages.snoozedUntil));
    if (filter.tags?.length) conditions.push(arrayOverlaps(messages.tags, filter.tags));
    if (filter.severity?.length)
      conditions.push(sql`${messages.severity} = ANY(${sql.param(filter.severity)}::text[])`);
    if (filter.data) conditions.push(sql`${messages.data} @> ${JSON.stringify(filter.data)}::jsonb`);
    if (filter.createdGte) conditions.push(gte(messages.createdAt, filter.createdGte));
    if (filter.createdLte) conditions.push(lte(messages.createdAt, filter.createdLte));
    if (filter.contextKeys) conditions.push(exactContextKeys(filter.contextKeys));
    return and(...conditions);
  }
}
