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
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { messages, type MessageRow, type NewMessageRow } from '../schema/index.js';
import type { MessageView } from './message.repository.js';
import { exactContextKeys } from './context-keys.js';
import { findNotificationTriggers } from './notification-triggers.js';
import { newestFirst, UNNAMED } from './table-sql.js';

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

/** An inbox filter as a condition with placeholders, their values, and the shape its text follows. */
interface FilterCondition {
  condition: SQL | undefined;
  values: Record<string, unknown>;
  shape: string;
}

interface InboxListQuery {
  execute(values: Record<string, unknown>): Promise<InboxPageMessage[]>;
}

interface InboxCountQuery {
  execute(values: Record<string, unknown>): Promise<{ total: number }[]>;
}

/** A subscriber's in-app messages as Novu's v2 inbox routes read and change them. */
@Injectable()
export class InboxMessageRepository {
  /** The inbox's reads by filter shape, built once each (a handful of shapes in practice). */
  private readonly lists = new Map<string, InboxListQuery>();
  private readonly counts = new Map<string, InboxCountQuery>();

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
    const { condition, values, shape } = this.where(environmentId, subscriberId, filter);
    let anchor: MessageRow | undefined;
    if (page.after) {
      anchor = await this.findOne(environmentId, subscriberId, page.after);
      if (!anchor) return { rows: [], hasMore: false };
    }
    const key = `${shape}|${anchor ? 'after' : 'offset'}`;
    let list = this.lists.get(key);
    if (!list) {
      const before = or(
        lt(messages.createdAt, sql.placeholder('anchorCreatedAt')),
        and(eq(messages.createdAt, sql.placeholder('anchorCreatedAt')), lt(messages.id, sql.placeholder('anchorId'))),
      );
      list = this.db
        .select(INBOX_PAGE_COLUMNS)
        .from(messages)
        .where(anchor ? and(condition, before) : condition)
        .orderBy(...newestFirst(messages.createdAt, messages.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(UNNAMED);
      this.lists.set(key, list);
    }
    const rows = await list.execute({
      ...values,
      anchorCreatedAt: anchor?.createdAt,
      anchorId: anchor?.id,
      limit: page.limit + 1,
      offset: anchor ? 0 : (page.offset ?? 0),
    });
    return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  async count(environmentId: string, subscriberId: string, filter: InboxFilter): Promise<number> {
    const { condition, values, shape } = this.where(environmentId, subscriberId, filter);
    let counter = this.counts.get(shape);
    if (!counter) {
      counter = this.db.select({ total: count() }).from(messages).where(condition).prepare(UNNAMED);
      this.counts.set(shape, counter);
    }
    const [{ total }] = await counter.execute(values);
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
    const matching = this.where(environmentId, subscriberId, filter);
    return executor
      .update(messages)
      .set({
        ...set,
        ...(deliveredAt ? { deliveredAt: sql`array_append(${messages.deliveredAt}, ${deliveredAt}::text)` } : {}),
        updatedAt: now,
      })
      .where(matching.condition)
      .returning()
      .execute(matching.values);
  }

  /** Soft delete: the messages leave every list, feed and count. Returns the deleted rows. */
  async delete(
    environmentId: string,
    subscriberId: string,
    filter: InboxFilter,
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<MessageRow[]> {
    const matching = this.where(environmentId, subscriberId, filter);
    return executor
      .update(messages)
      .set({ deleted: true, updatedAt: now })
      .where(matching.condition)
      .returning()
      .execute(matching.values);
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

  private inApp(environmentId: string | Placeholder, subscriberId: string | Placeholder): SQL | undefined {
    return and(
      eq(messages.environmentId, environmentId),
      eq(messages.subscriberId, subscriberId),
      eq(messages.channel, 'in_app'),
      eq(messages.deleted, false),
    );
  }

  /**
   * The filter's condition with placeholders, and their values: its text depends only on which fields
   * are set (and `snoozed`, `contextKeys: []`), so the reads below build each shape's statement once.
   */
  private where(environmentId: string, subscriberId: string, filter: InboxFilter): FilterCondition {
    const at = (name: keyof InboxFilter) => sql.placeholder(name);
    const conditions: (SQL | undefined)[] = [
      this.inApp(sql.placeholder('environmentId'), sql.placeholder('subscriberId')),
    ];
    const values: Record<string, unknown> = { environmentId, subscriberId };
    const keys: string[] = [];
    const match = (key: keyof InboxFilter, condition: SQL | undefined, value: unknown = filter[key]) => {
      conditions.push(condition);
      values[key] = value;
      keys.push(key);
    };
    if (filter.ids) match('ids', sql`${messages.id} = ANY(${at('ids')}::uuid[])`);
    if (filter.feedIds) match('feedIds', sql`${messages.feedId} = ANY(${at('feedIds')}::text[])`);
    if (filter.read !== undefined) match('read', eq(messages.read, at('read')));
    if (filter.seen !== undefined) match('seen', eq(messages.seen, at('seen')));
    if (filter.archived !== undefined) match('archived', eq(messages.archived, at('archived')));
    if (filter.snoozed !== undefined) {
      conditions.push(filter.snoozed ? isNotNull(messages.snoozedUntil) : isNull(messages.snoozedUntil));
      keys.push(filter.snoozed ? 'snoozed' : 'awake');
    }
    if (filter.tags?.length) match('tags', arrayOverlaps(messages.tags, at('tags')));
    if (filter.severity?.length) match('severity', sql`${messages.severity} = ANY(${at('severity')}::text[])`);
    if (filter.data) match('data', sql`${messages.data} @> ${at('data')}::jsonb`, JSON.stringify(filter.data));
    if (filter.createdGte) match('createdGte', gte(messages.createdAt, at('createdGte')));
    if (filter.createdLte) match('createdLte', lte(messages.createdAt, at('createdLte')));
    if (filter.contextKeys?.length === 0) {
      conditions.push(exactContextKeys([]));
      keys.push('noContext');
    } else if (filter.contextKeys) {
      match('contextKeys', exactContextKeys(at('contextKeys')));
    }
    return { condition: and(...conditions), values, shape: keys.join(',') };
  }
}
