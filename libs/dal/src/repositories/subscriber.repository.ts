import { Inject, Injectable } from '@nestjs/common';
import { and, desc, asc, eq, getTableColumns, gt, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { subscribers, type StoredChannelSettings, type SubscriberRow } from '../schema/index.js';
import { cappedCount, type CappedCount } from './capped-count.js';
import { liveSubscriber } from './live-subscriber.js';
import { eraseSubscriberData } from './subscriber-erasure.js';
import { checkOnly, selectList, tableRows, uuids } from './table-sql.js';

export interface SubscriberScope {
  environmentId: string;
  organizationId: string;
}

/** undefined = keep the stored value, null = clear it. */
export interface SubscriberUpsertInput {
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
  avatar?: string | null;
  locale?: string | null;
  timezone?: string | null;
  data?: Record<string, unknown> | null;
  /** Merged into the stored entries by (providerId, _integrationId); see mergeChannelsSql. */
  channels?: StoredChannelSettings[];
}

export interface SubscriberUpsertResult {
  row: SubscriberRow;
  created: boolean;
}

export interface SubscriberListFilter {
  email?: string;
  phone?: string;
  name?: string;
  subscriberId?: string;
}

/** Keyset page: `after` = rows older than this id, `before` = rows newer than it (newest first). */
export interface SubscriberCursor {
  after?: string;
  before?: string;
  limit: number;
}

const SCALAR_FIELDS = [
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['avatar', 'avatar'],
  ['locale', 'locale'],
  ['timezone', 'timezone'],
] as const;

/** The list's filter: live subscribers of the environment, each given field a case-insensitive substring. */
function listConditions(environmentId: string, filter: SubscriberListFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [
    eq(subscribers.environmentId, environmentId),
    eq(subscribers.deleted, false),
  ];
  if (filter.email) conditions.push(ilike(subscribers.email, `%${escapeLike(filter.email)}%`));
  if (filter.phone) conditions.push(ilike(subscribers.phone, `%${escapeLike(filter.phone)}%`));
  if (filter.subscriberId) conditions.push(ilike(subscribers.subscriberId, `%${escapeLike(filter.subscriberId)}%`));
  if (filter.name) {
    const pattern = `%${escapeLike(filter.name)}%`;
    conditions.push(
      or(
        ilike(subscribers.firstName, pattern),
        ilike(subscribers.lastName, pattern),
        sql`(coalesce(${subscribers.firstName}, '') || ' ' || coalesce(${subscribers.lastName}, '')) ILIKE ${pattern}`,
      ),
    );
  }
  return conditions;
}

const COLUMNS = Object.entries(getTableColumns(subscribers)).map(([key, column]) => [key, column.name] as const);

function toRow(raw: Record<string, unknown>): SubscriberRow {
  const row: Record<string, unknown> = {};
  for (const [key, name] of COLUMNS) row[key] = raw[name];
  for (const key of ['createdAt', 'updatedAt', 'lastOnlineAt'] as const) {
    if (typeof row[key] === 'string') row[key] = new Date(row[key]);
  }
  return row as SubscriberRow;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A channel list merged with incoming entries: an entry with the same (providerId, _integrationId)
 * gets its credentials merged key by key (so a given deviceTokens list replaces the stored one and
 * an absent one keeps it), other incoming entries are appended in order.
 */
export function mergeChannelsSql(stored: SQL, incoming: SQL): SQL {
  return sql`(SELECT coalesce(jsonb_agg(
      CASE WHEN n.e IS NULL THEN o.e
           WHEN o.e IS NULL THEN n.e
           ELSE o.e || (n.e - 'credentials') || jsonb_build_object('credentials', coalesce(o.e->'credentials', '{}'::jsonb) || coalesce(n.e->'credentials', '{}'::jsonb))
      END ORDER BY coalesce(o.ord, 1000000 + n.ord)), '[]'::jsonb)
    FROM jsonb_array_elements(${stored}) WITH ORDINALITY AS o(e, ord)
    FULL JOIN jsonb_array_elements(${incoming}) WITH ORDINALITY AS n(e, ord)
      ON o.e->>'providerId' = n.e->>'providerId' AND o.e->>'_integrationId' = n.e->>'_integrationId')`;
}

/** Entries for the same (providerId, _integrationId) fold into one, later credentials winning key by key. */
function foldChannels(channels: StoredChannelSettings[]): StoredChannelSettings[] {
  const byKey = new Map<string, StoredChannelSettings>();
  for (const entry of channels) {
    const key = `${entry.providerId}\u0000${entry._integrationId}`;
    const previous = byKey.get(key);
    byKey.set(
      key,
      previous ? { ...previous, ...entry, credentials: { ...previous.credentials, ...entry.credentials } } : entry,
    );
  }
  return [...byKey.values()];
}

/** Later definitions of one subscriberId override the earlier ones field by field. */
function collapse(inputs: SubscriberUpsertInput[]): SubscriberUpsertInput[] {
  const byId = new Map<string, SubscriberUpsertInput>();
  for (const input of inputs) {
    const previous = byId.get(input.subscriberId);
    const defined = Object.fromEntries(
      Object.entries(input).filter(([, value]) => value !== undefined),
    ) as SubscriberUpsertInput;
    const channels = [...(previous?.channels ?? []), ...(input.channels ?? [])];
    const merged = { ...previous, ...defined };
    if (previous?.channels || input.channels) merged.channels = foldChannels(channels);
    byId.set(input.subscriberId, merged);
  }
  return [...byId.values()];
}

export interface UpsertOptions {
  /**
   * true (default): a soft-deleted subscriber is restored (re-creating it). false: it stays deleted,
   * is not touched and is left out of the result (for callers that must not revive it).
   */
  restoreDeleted?: boolean;
}

@Injectable()
export class SubscriberRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findBySubscriberId(environmentId: string, subscriberId: string): Promise<SubscriberRow | undefined> {
    const [row] = await this.db
      .select()
      .from(subscribers)
      .where(
        and(
          eq(subscribers.environmentId, environmentId),
          eq(subscribers.subscriberId, subscriberId),
          eq(subscribers.deleted, false),
        ),
      )
      .limit(1);
    return row;
  }

  /** Live subscribers by external id (raw: the fan-out reads them for many triggers at once), by the (environment, subscriberId) key. */
  async findBySubscriberIds(environmentId: string, subscriberIds: string[]): Promise<SubscriberRow[]> {
    if (subscriberIds.length === 0) return [];
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT ${selectList(subscribers, 's')} FROM subscribers s
      WHERE s.environment_id = ${environmentId} AND s.subscriber_id = ANY(${sql.param(subscriberIds)}::text[]) AND ${checkOnly(sql`NOT s.deleted`)}`);
    return tableRows<SubscriberRow>(subscribers, result.rows);
  }

  /**
   * A broadcast's fan-out pages: the environment's live subscribers, keyset over the
   * (environment_id, subscriber_id) unique index, so page N costs what page 1 costs.
   */
  async listFanOutPage(
    environmentId: string,
    afterSubscriberId: string | undefined,
    limit: number,
  ): Promise<{ id: string; subscriberId: string }[]> {
    return this.db
      .select({ id: subscribers.id, subscriberId: subscribers.subscriberId })
      .from(subscribers)
      .where(
        and(
          eq(subscribers.environmentId, environmentId),
          afterSubscriberId === undefined ? undefined : gt(subscribers.subscriberId, afterSubscriberId),
          eq(subscribers.deleted, false),
        ),
      )
      .orderBy(asc(subscribers.subscriberId))
      .limit(limit);
  }

  /** Live subscribers by internal id (raw: the step runner reads a whole batch at once). */
  async findByIds(environmentId: string, ids: string[]): Promise<SubscriberRow[]> {
    if (ids.length === 0) return [];
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT ${selectList(subscribers, 's')} FROM subscribers s
      WHERE s.id = ANY(${uuids(ids)}) AND ${checkOnly(sql`s.environment_id = ${environmentId} AND NOT s.deleted`)}`);
    return tableRows<SubscriberRow>(subscribers, result.rows);
  }

  async upsertMany(
    scope: SubscriberScope,
    inputs: SubscriberUpsertInput[],
    options: UpsertOptions = {},
    executor: DbExecutor = this.db,
  ): Promise<SubscriberRow[]> {
    return (await this.upsertManyDetailed(scope, inputs, options, executor)).map((result) => result.row);
  }

  /**
   * One INSERT ... ON CONFLICT DO UPDATE for the whole batch. The raw input travels as one jsonb
   * parameter so the update can tell an absent key (keep) from a null (clear); the update always
   * runs so every row is returned, but __v and updatedAt move only when something changed.
   */
  async upsertManyDetailed(
    scope: SubscriberScope,
    inputs: SubscriberUpsertInput[],
    { restoreDeleted = true }: UpsertOptions = {},
    executor: DbExecutor = this.db,
  ): Promise<SubscriberUpsertResult[]> {
    const batch = collapse(inputs).map((input) => ({ ...input, id: newId() }));
    if (batch.length === 0) return [];
    const pick = (field: string) =>
      sql`CASE WHEN i.raw ? ${field} THEN i.raw->>${field} ELSE subscribers.${sql.raw(columnOf(field))} END`;
    const assignments = SCALAR_FIELDS.map(([field]) => pick(field));
    const result = await executor.execute(sql`
      WITH input AS (
        SELECT e AS raw, e->>'subscriberId' AS subscriber_id FROM jsonb_array_elements(${JSON.stringify(batch)}::jsonb) AS e
      )
      INSERT INTO subscribers AS subscribers (id, environment_id, organization_id, subscriber_id, first_name, last_name, email, phone, avatar, locale, timezone, data, channels)
      SELECT (raw->>'id')::uuid, ${scope.environmentId}::uuid, ${scope.organizationId}::uuid, subscriber_id,
        ${sql.join(
          SCALAR_FIELDS.map(([field]) => sql`raw->>${field}`),
          sql`, `,
        )},
        nullif(raw->'data', 'null'::jsonb), coalesce(raw->'channels', '[]'::jsonb)
      FROM input
      ON CONFLICT (environment_id, subscriber_id) DO UPDATE SET
        (${sql.raw(SCALAR_FIELDS.map(([, column]) => column).join(', '))}, data, channels, deleted, version, updated_at) = (
          SELECT ${sql.join(
            SCALAR_FIELDS.map(([, column]) => sql`m.${sql.raw(column)}`),
            sql`, `,
          )}, m.data, m.channels, false,
            CASE WHEN m.changed THEN subscribers.version + 1 ELSE subscribers.version END,
            CASE WHEN m.changed THEN now() ELSE subscribers.updated_at END
          FROM (
            SELECT v.*, subscribers.deleted OR
              (${sql.raw(SCALAR_FIELDS.map(([, column]) => `v.${column}`).join(', '))}, v.data, v.channels) IS DISTINCT FROM
              (${sql.raw(SCALAR_FIELDS.map(([, column]) => `subscribers.${column}`).join(', '))}, subscribers.data, subscribers.channels) AS changed
            FROM (
              SELECT ${sql.join(
                assignments.map((assignment, index) => sql`${assignment} AS ${sql.raw(SCALAR_FIELDS[index][1])}`),
                sql`, `,
              )},
                CASE WHEN i.raw ? 'data' THEN nullif(i.raw->'data', 'null'::jsonb) ELSE subscribers.data END AS data,
                CASE WHEN i.raw ? 'channels' THEN ${mergeChannelsSql(sql`subscribers.channels`, sql`i.raw->'channels'`)} ELSE subscribers.channels END AS channels
              FROM input i WHERE i.subscriber_id = excluded.subscriber_id
            ) v
          ) m
        )
      ${restoreDeleted ? sql`` : sql`WHERE NOT subscribers.deleted`}
      RETURNING subscribers.*, (xmax = 0) AS inserted`);
    return result.rows.map((raw) => ({
      row: toRow(raw),
      created: raw.inserted === true,
    }));
  }

  /** PATCH semantics on one live subscriber; undefined when it does not exist or is deleted. */
  async update(
    environmentId: string,
    subscriberId: string,
    input: Omit<SubscriberUpsertInput, 'subscriberId'>,
  ): Promise<SubscriberRow | undefined> {
    const existing = await this.findBySubscriberId(environmentId, subscriberId);
    if (!existing) return undefined;
    const [result] = await this.upsertManyDetailed(existing, [{ ...input, subscriberId }], { restoreDeleted: false });
    return result?.row;
  }

  /** Merges one channel entry into a live subscriber's channels in a single UPDATE. */
  async mergeChannel(
    environmentId: string,
    subscriberId: string,
    entry: StoredChannelSettings,
  ): Promise<SubscriberRow | undefined> {
    const merged = mergeChannelsSql(sql`${subscribers.channels}`, sql`${JSON.stringify([entry])}::jsonb`);
    const [row] = await this.db
      .update(subscribers)
      .set({
        channels: merged,
        version: sql`CASE WHEN ${merged} IS DISTINCT FROM ${subscribers.channels} THEN ${subscribers.version} + 1 ELSE ${subscribers.version} END`,
        updatedAt: sql`now()`,
      })
      .where(liveSubscriber(environmentId, subscriberId))
      .returning();
    return row;
  }

  /**
   * Sets the credentials of the subscriber's entry for (providerId, _integrationId) to exactly the
   * given ones, in its place, or appends the entry; unlike mergeChannel no stored key survives.
   */
  async replaceChannel(
    environmentId: string,
    subscriberId: string,
    entry: StoredChannelSettings,
  ): Promise<SubscriberRow | undefined> {
    const incoming = sql`${JSON.stringify(entry)}::jsonb`;
    const replaced = sql`(SELECT CASE WHEN bool_or(c.hit)
        THEN jsonb_agg(CASE WHEN c.hit THEN ${incoming} ELSE c.e END ORDER BY c.ord)
        ELSE coalesce(jsonb_agg(c.e ORDER BY c.ord), '[]'::jsonb) || jsonb_build_array(${incoming}) END
      FROM (SELECT e, ord, (e->>'providerId' = ${entry.providerId} AND e->>'_integrationId' = ${entry._integrationId}) AS hit
        FROM jsonb_array_elements(${subscribers.channels}) WITH ORDINALITY AS x(e, ord)) c)`;
    return this.setChannels(environmentId, subscriberId, replaced);
  }

  /** Drops every channel entry of the provider; the version moves only when one was there. */
  async removeChannels(
    environmentId: string,
    subscriberId: string,
    providerId: string,
  ): Promise<SubscriberRow | undefined> {
    const kept = sql`coalesce((SELECT jsonb_agg(x.e ORDER BY x.ord)
      FROM jsonb_array_elements(${subscribers.channels}) WITH ORDINALITY AS x(e, ord)
      WHERE x.e->>'providerId' IS DISTINCT FROM ${providerId}), '[]'::jsonb)`;
    return this.setChannels(environmentId, subscriberId, kept);
  }

  private async setChannels(
    environmentId: string,
    subscriberId: string,
    channels: SQL,
  ): Promise<SubscriberRow | undefined> {
    const changed = sql`${channels} IS DISTINCT FROM ${subscribers.channels}`;
    const [row] = await this.db
      .update(subscribers)
      .set({
        channels,
        version: sql`CASE WHEN ${changed} THEN ${subscribers.version} + 1 ELSE ${subscribers.version} END`,
        updatedAt: sql`CASE WHEN ${changed} THEN now() ELSE ${subscribers.updatedAt} END`,
      })
      .where(liveSubscriber(environmentId, subscriberId))
      .returning();
    return row;
  }

  /**
   * Deletes the subscriber and erases what it held, in one transaction: its personal fields and channel
   * credentials, its messages of every channel, its notifications with their jobs and execution details,
   * its preferences and topic memberships, and its entries in trigger bodies (subscriber-erasure.ts). The
   * row stays, marked deleted with a new generation, so the inbox tokens issued to it fail (its sessions
   * end) and a later create of the same subscriberId starts from nothing; it keeps only its ids. Returns
   * the row's id, or undefined when there was no live subscriber.
   */
  async softDelete(
    environmentId: string,
    subscriberId: string,
    executor: DbExecutor = this.db,
  ): Promise<string | undefined> {
    return executor.transaction(async (tx) => {
      const [row] = await tx
        .update(subscribers)
        .set({
          deleted: true,
          generation: sql`${subscribers.generation} + 1`,
          isOnline: false,
          onlineProcessId: null,
          lastOnlineAt: null,
          firstName: null,
          lastName: null,
          email: null,
          phone: null,
          avatar: null,
          locale: null,
          timezone: null,
          data: null,
          channels: [],
          version: sql`${subscribers.version} + 1`,
          updatedAt: sql`now()`,
        })
        .where(liveSubscriber(environmentId, subscriberId))
        .returning({ id: subscribers.id, subscriberId: subscribers.subscriberId });
      if (!row) return undefined;
      await eraseSubscriberData(tx, environmentId, row);
      return row.id;
    });
  }

  /**
   * Creates the subscriber unless a row with its subscriberId exists, live or deleted, and never
   * touches one that does: for callers whose word may not change or restore a subscriber.
   */
  async insertIfAbsent(
    scope: SubscriberScope,
    input: SubscriberUpsertInput,
    executor: DbExecutor = this.db,
  ): Promise<SubscriberRow | undefined> {
    const [row] = await executor
      .insert(subscribers)
      .values({ ...input, id: newId(), ...scope, channels: input.channels ?? [] })
      .onConflictDoNothing({ target: [subscribers.environmentId, subscribers.subscriberId] })
      .returning();
    return row;
  }

  /** Newest first; fetches one extra row to know whether another page exists. */
  async list(
    environmentId: string,
    filter: SubscriberListFilter,
    cursor: SubscriberCursor,
  ): Promise<{ rows: SubscriberRow[]; hasMore: boolean }> {
    const conditions = listConditions(environmentId, filter);
    if (cursor.after) conditions.push(lt(subscribers.id, cursor.after));
    if (cursor.before) conditions.push(gt(subscribers.id, cursor.before));
    const rows = await this.db
      .select()
      .from(subscribers)
      .where(and(...conditions))
      .orderBy(cursor.before ? asc(subscribers.id) : desc(subscribers.id))
      .limit(cursor.limit + 1);
    const hasMore = rows.length > cursor.limit;
    const page = rows.slice(0, cursor.limit);
    return { rows: cursor.before ? page.reverse() : page, hasMore };
  }

  /** How many subscribers the list's filter matches, whatever the page (capped, see cappedCount). */
  async count(environmentId: string, filter: SubscriberListFilter): Promise<CappedCount> {
    return cappedCount(this.db, subscribers, and(...listConditions(environmentId, filter)));
  }

  /**
   * Drops one device token from the subscriber's channel entries of an integration, in one UPDATE
   * (a concurrent credentials PATCH is not overwritten); the version moves only when the token was there.
   * Returns whether it was removed.
   */
  async removeDeviceToken(
    environmentId: string,
    subscriberInternalId: string,
    integrationId: string,
    token: string,
  ): Promise<boolean> {
    const tokenJson = sql`jsonb_build_array(${token}::text)`;
    const rows = await this.db
      .update(subscribers)
      .set({
        channels: sql`(SELECT jsonb_agg(
            CASE WHEN c.e->>'_integrationId' = ${integrationId} AND jsonb_typeof(c.e->'credentials'->'deviceTokens') = 'array'
              THEN jsonb_set(c.e, '{credentials,deviceTokens}', coalesce(
                (SELECT jsonb_agg(t.v ORDER BY t.o) FROM jsonb_array_elements(c.e->'credentials'->'deviceTokens') WITH ORDINALITY AS t(v, o) WHERE t.v <> to_jsonb(${token}::text)),
                '[]'::jsonb))
              ELSE c.e END ORDER BY c.o)
          FROM jsonb_array_elements(${subscribers.channels}) WITH ORDINALITY AS c(e, o))`,
        version: sql`${subscribers.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(subscribers.environmentId, environmentId),
          eq(subscribers.id, subscriberInternalId),
          eq(subscribers.deleted, false),
          sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${subscribers.channels}) AS c(e)
            WHERE c.e->>'_integrationId' = ${integrationId} AND c.e->'credentials'->'deviceTokens' @> ${tokenJson})`,
        ),
      )
      .returning({ id: subscribers.id });
    return rows.length > 0;
  }
}

function columnOf(field: string): string {
  return SCALAR_FIELDS.find(([name]) => name === field)![1];
}
