import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, getTableColumns, gt, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { subscribers, topics, topicSubscribers, type TopicRow } from '../schema/index.js';
import { cappedCount, type CappedCount } from './capped-count.js';
import { lockLiveSubscribers } from './subscriber-erasure.js';

export interface TopicScope {
  environmentId: string;
  organizationId: string;
}

export interface TopicMember {
  /** Internal subscriber id. */
  subscriberId: string;
  externalSubscriberId: string;
}

/** A membership as the API shows it: the member, when it joined, and the subscription's settings. */
export interface TopicMembership extends TopicMember {
  name: string | null;
  context: Record<string, unknown> | null;
  preferences: unknown[] | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A subscription's settings as a create or update sets them; a field left out keeps its value. */
export interface SubscriptionSettings {
  name?: string;
  context?: Record<string, unknown>;
  /** Null clears them: every trigger reaches the member again. */
  preferences?: unknown[] | null;
}

/** A member to add with its subscription's settings. */
export interface NewTopicMember extends TopicMember {
  settings?: SubscriptionSettings;
}

export interface FanOutMember extends TopicMember {
  /** False for a soft-deleted subscriber, who keeps the membership but receives nothing. */
  live: boolean;
  /** The subscription's preferences; null: every trigger reaches the member. */
  preferences: unknown[] | null;
  /** The member's fields a preference condition reads; read only for members with preferences. */
  subscriber: Record<string, unknown> | null;
}

export interface TopicMemberDetail extends TopicMembership {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
}

/** A topic the subscriber belongs to, with the membership's dates. */
export interface SubscriberTopic {
  topic: TopicRow;
  joinedAt: Date;
  membershipUpdatedAt: Date;
}

/**
 * What a session's join did: joined (the topic created when missing), already a member, refused at the
 * cap, or nothing because the subscriber was deleted meanwhile (gone).
 */
export type SessionJoin = 'joined' | 'member' | 'full' | 'gone';

/** Advisory lock class ("TOPS") of a subscriber's session joins, the second key its id's hash. */
const SESSION_JOIN_LOCK_CLASS = 0x544f5053;

export interface KeysetCursor {
  after?: string;
  before?: string;
  limit: number;
}

/** The settings columns an upsert may overwrite, by property. */
const SETTING_COLUMNS: Record<string, string> = { name: 'name', context: 'context', preferences: 'preferences' };

function settingKeys(settings: SubscriptionSettings | undefined): string[] {
  if (!settings) return [];
  return Object.keys(SETTING_COLUMNS).filter((key) => settings[key as keyof SubscriptionSettings] !== undefined);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

const MEMBERSHIP = {
  subscriberId: topicSubscribers.subscriberId,
  externalSubscriberId: topicSubscribers.externalSubscriberId,
  name: topicSubscribers.name,
  context: topicSubscribers.context,
  preferences: topicSubscribers.preferences,
  createdAt: topicSubscribers.createdAt,
  updatedAt: topicSubscribers.updatedAt,
};

/** Case-insensitive substrings of the key and the name. */
interface TopicListFilter {
  key?: string;
  name?: string;
}

function listConditions(environmentId: string, filter: TopicListFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(topics.environmentId, environmentId)];
  if (filter.key) conditions.push(ilike(topics.key, `%${escapeLike(filter.key)}%`));
  if (filter.name) conditions.push(ilike(topics.name, `%${escapeLike(filter.name)}%`));
  return conditions;
}

@Injectable()
export class TopicRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findByKey(environmentId: string, key: string): Promise<TopicRow | undefined> {
    const [row] = await this.db
      .select()
      .from(topics)
      .where(and(eq(topics.environmentId, environmentId), eq(topics.key, key)))
      .limit(1);
    return row;
  }

  /** Creates the topic or, when `name` is given, renames the existing one. */
  async upsert(scope: TopicScope, key: string, name?: string | null): Promise<{ row: TopicRow; created: boolean }> {
    const [row] = await this.db
      .insert(topics)
      .values({ id: newId(), ...scope, key, name: name ?? null })
      .onConflictDoUpdate({
        target: [topics.environmentId, topics.key],
        set: name === undefined ? { key: sql`excluded.key` } : { name, updatedAt: sql`now()` },
      })
      .returning({ ...getTableColumns(topics), inserted: sql<boolean>`(xmax = 0)` });
    const { inserted, ...topic } = row;
    return { row: topic, created: inserted };
  }

  /** Renames an existing topic; none when the environment has no topic of that key. */
  async rename(environmentId: string, key: string, name: string): Promise<TopicRow | undefined> {
    const [row] = await this.db
      .update(topics)
      .set({ name, updatedAt: sql`now()` })
      .where(and(eq(topics.environmentId, environmentId), eq(topics.key, key)))
      .returning();
    return row;
  }

  async delete(environmentId: string, key: string): Promise<boolean> {
    const rows = await this.db
      .delete(topics)
      .where(and(eq(topics.environmentId, environmentId), eq(topics.key, key)))
      .returning({ id: topics.id });
    return rows.length > 0;
  }

  async list(
    environmentId: string,
    filter: TopicListFilter,
    cursor: KeysetCursor,
  ): Promise<{ rows: TopicRow[]; hasMore: boolean }> {
    const conditions = listConditions(environmentId, filter);
    if (cursor.after) conditions.push(lt(topics.id, cursor.after));
    if (cursor.before) conditions.push(gt(topics.id, cursor.before));
    const rows = await this.db
      .select()
      .from(topics)
      .where(and(...conditions))
      .orderBy(cursor.before ? asc(topics.id) : desc(topics.id))
      .limit(cursor.limit + 1);
    const page = rows.slice(0, cursor.limit);
    return { rows: cursor.before ? page.reverse() : page, hasMore: rows.length > cursor.limit };
  }

  /** How many topics the list's filter matches, whatever the page (capped, see cappedCount). */
  async count(environmentId: string, filter: TopicListFilter): Promise<CappedCount> {
    return cappedCount(this.db, topics, and(...listConditions(environmentId, filter)));
  }

  /**
   * A subscriber's topics with the membership's dates, newest topic first (keyset on the topic id, as
   * the topic list). Memberships are keyed by topic first, so each topic of the environment is probed
   * by primary key rather than scanning memberships for the subscriber.
   */
  async listSubscriberTopics(
    environmentId: string,
    subscriberId: string,
    filter: TopicListFilter,
    cursor: KeysetCursor,
  ): Promise<{ rows: SubscriberTopic[]; hasMore: boolean }> {
    const conditions = listConditions(environmentId, filter);
    if (cursor.after) conditions.push(lt(topics.id, cursor.after));
    if (cursor.before) conditions.push(gt(topics.id, cursor.before));
    const rows = await this.db
      .select({ topic: topics, joinedAt: topicSubscribers.createdAt, membershipUpdatedAt: topicSubscribers.updatedAt })
      .from(topics)
      .innerJoin(
        topicSubscribers,
        and(eq(topicSubscribers.topicId, topics.id), eq(topicSubscribers.subscriberId, subscriberId)),
      )
      .where(and(...conditions))
      .orderBy(cursor.before ? asc(topics.id) : desc(topics.id))
      .limit(cursor.limit + 1);
    const page = rows.slice(0, cursor.limit);
    return { rows: cursor.before ? page.reverse() : page, hasMore: rows.length > cursor.limit };
  }

  /** How many topics the subscriber is a member of, within the filter (capped, see cappedCount). */
  async countSubscriberTopics(
    environmentId: string,
    subscriberId: string,
    filter: TopicListFilter,
  ): Promise<CappedCount> {
    return cappedCount(
      this.db,
      topics,
      and(
        ...listConditions(environmentId, filter),
        sql`EXISTS (SELECT 1 FROM topic_subscribers m WHERE m.topic_id = ${topics.id} AND m.subscriber_id = ${subscriberId})`,
      ),
    );
  }

  /** How many members the topic has (capped, see cappedCount). */
  async countMembers(environmentId: string, topicId: string): Promise<CappedCount> {
    return cappedCount(
      this.db,
      topicSubscribers,
      and(eq(topicSubscribers.topicId, topicId), eq(topicSubscribers.environmentId, environmentId)),
    );
  }

  /**
   * One multi-row insert per group of members carrying the same settings. A member already present
   * keeps its membership; the settings given with it (name, context, preferences) replace its own, the
   * others stay. A subscriber deleted meanwhile is left out (lockLiveSubscribers); the internal ids of
   * those left out are returned.
   */
  async addMembers(scope: TopicScope, topicId: string, members: NewTopicMember[]): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const live = await lockLiveSubscribers(
        tx,
        scope.environmentId,
        members.map((member) => member.subscriberId),
      );
      const groups = new Map<string, NewTopicMember[]>();
      for (const member of members.filter((candidate) => live.has(candidate.subscriberId))) {
        const key = settingKeys(member.settings).join(',');
        groups.set(key, [...(groups.get(key) ?? []), member]);
      }
      for (const [key, group] of groups) {
        const values = group.map(({ settings, ...member }) => ({ topicId, ...scope, ...member, ...settings }));
        const insert = tx.insert(topicSubscribers).values(values);
        if (key === '') await insert.onConflictDoNothing();
        else
          await insert.onConflictDoUpdate({
            target: [topicSubscribers.topicId, topicSubscribers.subscriberId],
            set: {
              ...Object.fromEntries(
                key.split(',').map((column) => [column, sql.raw(`excluded.${SETTING_COLUMNS[column]}`)]),
              ),
              updatedAt: sql`now()`,
            },
          });
      }
      return members.filter((member) => !live.has(member.subscriberId)).map((member) => member.subscriberId);
    });
  }

  /** Sets a subscription's settings; none when the member left the topic meanwhile. */
  async updateSubscription(
    environmentId: string,
    topicId: string,
    subscriberId: string,
    settings: SubscriptionSettings,
  ): Promise<TopicMembership | undefined> {
    const [row] = await this.db
      .update(topicSubscribers)
      .set({ ...settings, updatedAt: sql`now()` })
      .where(
        and(
          eq(topicSubscribers.topicId, topicId),
          eq(topicSubscribers.environmentId, environmentId),
          eq(topicSubscribers.subscriberId, subscriberId),
        ),
      )
      .returning(MEMBERSHIP);
    return row;
  }

  /**
   * A subscriber joining through an inbox session, at most `cap` such joins each. The count and the
   * insert run under a lock per subscriber, so concurrent joins cannot pass the cap together; the
   * topic is created only when the join is allowed, so a refused join leaves no empty topic behind.
   */
  async joinBySession(
    scope: TopicScope,
    key: string,
    name: string | undefined,
    member: TopicMember,
    cap: number,
  ): Promise<SessionJoin> {
    // Only the scope's two ids: a caller may pass a wider object (an inbox session names a subscriber too).
    const { environmentId, organizationId } = scope;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SESSION_JOIN_LOCK_CLASS}, hashtext(${member.subscriberId}))`);
      if (!(await lockLiveSubscribers(tx, environmentId, [member.subscriberId])).has(member.subscriberId))
        return 'gone';
      const [existing] = await tx
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.environmentId, environmentId), eq(topics.key, key)))
        .limit(1);
      if (existing) {
        const [membership] = await tx
          .select({ subscriberId: topicSubscribers.subscriberId })
          .from(topicSubscribers)
          .where(
            and(eq(topicSubscribers.topicId, existing.id), eq(topicSubscribers.subscriberId, member.subscriberId)),
          );
        if (membership) return 'member';
      }
      const [{ joined }] = await tx
        .select({ joined: count() })
        .from(topicSubscribers)
        .where(
          and(
            eq(topicSubscribers.environmentId, environmentId),
            eq(topicSubscribers.subscriberId, member.subscriberId),
            sql`${topicSubscribers.joinedBySession}`,
          ),
        );
      if (joined >= cap) return 'full';
      const [topic] = existing
        ? [existing]
        : await tx
            .insert(topics)
            .values({ id: newId(), environmentId, organizationId, key, name: name ?? null })
            // Created meanwhile by another subscriber's session: join that one.
            .onConflictDoUpdate({ target: [topics.environmentId, topics.key], set: { key: sql`excluded.key` } })
            .returning({ id: topics.id });
      await tx
        .insert(topicSubscribers)
        .values({ topicId: topic.id, environmentId, organizationId, ...member, joinedBySession: true })
        .onConflictDoNothing();
      return 'joined';
    });
  }

  /** The memberships of these subscribers (internal ids) in the topic, by primary key. */
  async findMembers(environmentId: string, topicId: string, subscriberIds: string[]): Promise<TopicMembership[]> {
    if (subscriberIds.length === 0) return [];
    return this.db
      .select(MEMBERSHIP)
      .from(topicSubscribers)
      .where(
        and(
          eq(topicSubscribers.topicId, topicId),
          eq(topicSubscribers.environmentId, environmentId),
          inArray(topicSubscribers.subscriberId, subscriberIds),
        ),
      );
  }

  async removeMembers(environmentId: string, topicId: string, subscriberIds: string[]): Promise<TopicMembership[]> {
    if (subscriberIds.length === 0) return [];
    return this.db
      .delete(topicSubscribers)
      .where(
        and(
          eq(topicSubscribers.topicId, topicId),
          eq(topicSubscribers.environmentId, environmentId),
          inArray(topicSubscribers.subscriberId, subscriberIds),
        ),
      )
      .returning(MEMBERSHIP);
  }

  /**
   * Fan-out pages: keyset over the (topic_id, subscriber_id) primary key, so page N costs what page 1
   * costs. Each member comes with its liveness, in one statement: the page keeps every member (the
   * keyset must move over deleted ones too) and tells which may receive.
   */
  async listFanOutPage(
    environmentId: string,
    topicId: string,
    afterSubscriberId: string | undefined,
    limit: number,
  ): Promise<FanOutMember[]> {
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT m.subscriber_id AS "subscriberId", m.external_subscriber_id AS "externalSubscriberId",
        -- A scalar subquery runs per member of the page, by key; a join (or EXISTS) was planned as a
        -- merge or hash over the whole subscribers table.
        COALESCE((SELECT NOT s.deleted FROM subscribers s WHERE s.id = m.subscriber_id AND s.environment_id = m.environment_id), false) AS live,
        m.preferences,
        -- Members without preferences (the common case) skip this second probe: CASE evaluates it only when needed.
        CASE WHEN m.preferences IS NULL THEN NULL ELSE (
          SELECT jsonb_build_object('subscriberId', s.subscriber_id, 'firstName', s.first_name, 'lastName', s.last_name,
            'email', s.email, 'phone', s.phone, 'avatar', s.avatar, 'locale', s.locale, 'timezone', s.timezone,
            'data', COALESCE(s.data, '{}'::jsonb))
          FROM subscribers s WHERE s.id = m.subscriber_id AND s.environment_id = m.environment_id) END AS subscriber
      FROM topic_subscribers m
      WHERE m.topic_id = ${topicId} AND m.environment_id = ${environmentId}${afterSubscriberId ? sql` AND m.subscriber_id > ${afterSubscriberId}` : sql``}
      ORDER BY m.subscriber_id
      LIMIT ${limit}`);
    return result.rows as unknown as FanOutMember[];
  }

  /** The API listing: same keyset, both directions, joined to the page's subscribers by primary key. */
  async listMemberDetails(
    environmentId: string,
    topicId: string,
    cursor: KeysetCursor,
  ): Promise<{ rows: TopicMemberDetail[]; hasMore: boolean }> {
    const rows = await this.db
      .select({
        subscriberId: topicSubscribers.subscriberId,
        externalSubscriberId: topicSubscribers.externalSubscriberId,
        firstName: subscribers.firstName,
        lastName: subscribers.lastName,
        email: subscribers.email,
        phone: subscribers.phone,
        avatar: subscribers.avatar,
        name: topicSubscribers.name,
        context: topicSubscribers.context,
        preferences: topicSubscribers.preferences,
        createdAt: topicSubscribers.createdAt,
        updatedAt: topicSubscribers.updatedAt,
      })
      .from(topicSubscribers)
      .leftJoin(subscribers, eq(subscribers.id, topicSubscribers.subscriberId))
      .where(
        and(
          eq(topicSubscribers.topicId, topicId),
          eq(topicSubscribers.environmentId, environmentId),
          cursor.after ? gt(topicSubscribers.subscriberId, cursor.after) : undefined,
          cursor.before ? lt(topicSubscribers.subscriberId, cursor.before) : undefined,
        ),
      )
      .orderBy(cursor.before ? desc(topicSubscribers.subscriberId) : asc(topicSubscribers.subscriberId))
      .limit(cursor.limit + 1);
    const page = rows.slice(0, cursor.limit);
    return { rows: cursor.before ? page.reverse() : page, hasMore: rows.length > cursor.limit };
  }
}
