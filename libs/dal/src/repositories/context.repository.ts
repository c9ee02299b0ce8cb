import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gt, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import { isUniqueViolation, type Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { contexts, type ContextRow } from '../schema/index.js';
import { cappedCount, type CappedCount } from './capped-count.js';

export interface ContextScope {
  environmentId: string;
  organizationId: string;
}

/** A context a trigger names: its data when the trigger gives some, else none (the stored data stays). */
export interface ContextReference {
  type: string;
  identifier: string;
  data?: Record<string, unknown>;
}

export interface ContextListFilter {
  /** Exact id. */
  identifier?: string;
  /** Case-insensitive substring of the type or the id. */
  search?: string;
}

export interface ContextCursor {
  after?: string;
  before?: string;
  limit: number;
  /** Newest first unless ascending. */
  ascending: boolean;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function listConditions(environmentId: string, filter: ContextListFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(contexts.environmentId, environmentId)];
  if (filter.identifier) conditions.push(eq(contexts.identifier, filter.identifier));
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(contexts.type, pattern), ilike(contexts.identifier, pattern)));
  }
  return conditions;
}

const keyOf = (type: string, identifier: string) => `${type}:${identifier}`;

@Injectable()
export class ContextRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Undefined when the environment has this context already. */
  async create(scope: ContextScope, reference: Required<ContextReference>): Promise<ContextRow | undefined> {
    try {
      const [row] = await this.db
        .insert(contexts)
        .values({ id: newId(), ...scope, ...reference })
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async find(environmentId: string, type: string, identifier: string): Promise<ContextRow | undefined> {
    const [row] = await this.db
      .select()
      .from(contexts)
      .where(this.byKey(environmentId, type, identifier))
      .limit(1);
    return row;
  }

  async replaceData(
    environmentId: string,
    type: string,
    identifier: string,
    data: Record<string, unknown>,
  ): Promise<ContextRow | undefined> {
    const [row] = await this.db
      .update(contexts)
      .set({ data, updatedAt: sql`now()` })
      .where(this.byKey(environmentId, type, identifier))
      .returning();
    return row;
  }

  async delete(environmentId: string, type: string, identifier: string): Promise<boolean> {
    const rows = await this.db
      .delete(contexts)
      .where(this.byKey(environmentId, type, identifier))
      .returning({ id: contexts.id });
    return rows.length > 0;
  }

  /** Keyset on the id (UUIDv7: creation order). */
  async list(
    environmentId: string,
    filter: ContextListFilter,
    cursor: ContextCursor,
  ): Promise<{ rows: ContextRow[]; hasMore: boolean }> {
    const conditions = listConditions(environmentId, filter);
    // `after` walks on in the list's direction, `before` walks back against it.
    const forward = cursor.ascending ? gt : lt;
    const backward = cursor.ascending ? lt : gt;
    if (cursor.after) conditions.push(forward(contexts.id, cursor.after));
    if (cursor.before) conditions.push(backward(contexts.id, cursor.before));
    const descending = cursor.ascending === Boolean(cursor.before);
    const rows = await this.db
      .select()
      .from(contexts)
      .where(and(...conditions))
      .orderBy(descending ? desc(contexts.id) : asc(contexts.id))
      .limit(cursor.limit + 1);
    const page = rows.slice(0, cursor.limit);
    return { rows: cursor.before ? page.reverse() : page, hasMore: rows.length > cursor.limit };
  }

  async count(environmentId: string, filter: ContextListFilter): Promise<CappedCount> {
    return cappedCount(this.db, contexts, and(...listConditions(environmentId, filter)));
  }

  /**
   * The contexts triggers name, in one statement whatever their number: the missing ones are created
   * (with the data given, else empty), those given data have it replaced, the others are read as
   * stored. By `type:id`. A reference named twice counts once, its last data winning.
   */
  async resolve(scope: ContextScope, references: ContextReference[]): Promise<Map<string, ContextRow>> {
    const byKey = new Map<string, ContextReference>();
    for (const reference of references) {
      const key = keyOf(reference.type, reference.identifier);
      const earlier = byKey.get(key);
      byKey.set(key, reference.data === undefined && earlier ? earlier : reference);
    }
    const unique = [...byKey.values()];
    const resolved = new Map<string, ContextRow>();
    if (unique.length === 0) return resolved;
    const result = await this.db.$client.query<ContextRow>(RESOLVE_STATEMENT, [
      scope.environmentId,
      scope.organizationId,
      JSON.stringify(
        unique.map((reference) => ({
          id: newId(),
          type: reference.type,
          identifier: reference.identifier,
          data: reference.data ?? null,
        })),
      ),
    ]);
    for (const row of result.rows) resolved.set(keyOf(row.type, row.identifier), row);
    // A context created by a concurrent statement after this one's snapshot: read it now.
    const missing = unique.filter((reference) => !resolved.has(keyOf(reference.type, reference.identifier)));
    for (const reference of missing) {
      const row = await this.find(scope.environmentId, reference.type, reference.identifier);
      if (row) resolved.set(keyOf(row.type, row.identifier), row);
    }
    return resolved;
  }

  private byKey(environmentId: string, type: string, identifier: string): SQL | undefined {
    return and(eq(contexts.environmentId, environmentId), eq(contexts.type, type), eq(contexts.identifier, identifier));
  }
}

const COLUMNS = `id, environment_id AS "environmentId", organization_id AS "organizationId", type, identifier, data,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * $1 environment, $2 organization, $3 a JSON array of { id, type, identifier, data|null }. Given data
 * replaces the stored one (two upserts, as no ON CONFLICT can tell "no data" from "empty data");
 * references without data that exist already are read from the statement's snapshot.
 */
const RESOLVE_STATEMENT = `
WITH input AS (
  SELECT i.id::uuid AS id, i.type, i.identifier, i.data
  FROM jsonb_to_recordset($3::jsonb) AS i(id text, type text, identifier text, data jsonb)
),
with_data AS (
  INSERT INTO contexts (id, environment_id, organization_id, type, identifier, data)
  SELECT id, $1::uuid, $2::uuid, type, identifier, data FROM input WHERE data IS NOT NULL
  ON CONFLICT (environment_id, type, identifier)
  DO UPDATE SET data = excluded.data, updated_at = now()
  RETURNING ${COLUMNS}
),
created AS (
  INSERT INTO contexts (id, environment_id, organization_id, type, identifier, data)
  SELECT id, $1::uuid, $2::uuid, type, identifier, '{}'::jsonb FROM input WHERE data IS NULL
  ON CONFLICT (environment_id, type, identifier) DO NOTHING
  RETURNING ${COLUMNS}
)
SELECT * FROM with_data
UNION ALL SELECT * FROM created
UNION ALL
SELECT ${COLUMNS} FROM contexts c
WHERE c.environment_id = $1::uuid
  AND (c.type, c.identifier) IN (SELECT type, identifier FROM input WHERE data IS NULL)`;
