import { Inject, Injectable } from '@nestjs/common';
import { and, arrayOverlaps, asc, count, desc, eq, ilike, inArray, not, or, sql, type SQL } from 'drizzle-orm';
import { isId, newId } from '#common';
import { isUniqueViolation, type Database, type DbExecutor } from '../database/database.js';
import { deleteResourceTranslations } from './translation.repository.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  notificationGroups,
  workflows,
  type NewWorkflowRow,
  type NotificationGroupRow,
  type WorkflowRow,
} from '../schema/index.js';

export interface WorkflowScope {
  environmentId: string;
  organizationId: string;
}

export type WorkflowValues = Omit<
  NewWorkflowRow,
  'id' | 'environmentId' | 'organizationId' | 'createdAt' | 'updatedAt' | 'deleted' | 'deletedAt' | 'deletedBy'
>;
export type WorkflowChanges = Partial<WorkflowValues>;

export interface WorkflowSearch {
  offset: number;
  limit: number;
  query?: string;
  tags?: string[];
  /** `ERROR` matches nothing: a stored workflow is valid. */
  statuses?: ('ACTIVE' | 'INACTIVE' | 'ERROR')[];
  orderBy: 'createdAt' | 'updatedAt' | 'name';
  orderDirection: 'ASC' | 'DESC';
}

/**
 * The slug of a name, computed by the database the same way `slugify` in libs/application does it
 * (lower case, runs of anything but a-z0-9 become one dash, no dash at either end).
 */
const nameSlug = sql<string>`trim(both '-' from regexp_replace(lower(${workflows.name}), '[^a-z0-9]+', '-', 'g'))`;

const live = (environmentId: string) => and(eq(workflows.environmentId, environmentId), eq(workflows.deleted, false));

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

@Injectable()
export class WorkflowRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findById(environmentId: string, id: string): Promise<WorkflowRow | undefined> {
    return this.findOne(environmentId, eq(workflows.id, id));
  }

  async findByIdentifier(environmentId: string, identifier: string): Promise<WorkflowRow | undefined> {
    return this.findOne(environmentId, eq(workflows.identifier, identifier));
  }

  /** An internal id, else a trigger identifier, else the slug of a name (oldest match). */
  async findByIdOrIdentifier(environmentId: string, key: string): Promise<WorkflowRow | undefined> {
    if (isId(key)) return this.findById(environmentId, key);
    return (await this.findByIdentifier(environmentId, key)) ?? this.findOne(environmentId, eq(nameSlug, key));
  }

  /** Live workflows named by internal id or trigger identifier, or carrying any of the tags; at most `limit`. */
  async findByKeysOrTags(
    environmentId: string,
    keys: string[],
    tags: string[],
    limit: number,
  ): Promise<Pick<WorkflowRow, 'id' | 'identifier' | 'name' | 'critical' | 'tags' | 'data'>[]> {
    const ids = keys.filter(isId);
    const matches: SQL[] = [];
    if (ids.length > 0) matches.push(inArray(workflows.id, ids));
    if (keys.length > 0) matches.push(inArray(workflows.identifier, keys));
    if (tags.length > 0) matches.push(arrayOverlaps(workflows.tags, tags));
    if (matches.length === 0) return [];
    return this.db
      .select({
        id: workflows.id,
        identifier: workflows.identifier,
        name: workflows.name,
        critical: workflows.critical,
        tags: workflows.tags,
        data: workflows.data,
      })
      .from(workflows)
      .where(and(live(environmentId), or(...matches)))
      .orderBy(asc(workflows.createdAt), asc(workflows.id))
      .limit(limit);
  }

  async listActive(environmentId: string): Promise<WorkflowRow[]> {
    return this.db
      .select()
      .from(workflows)
      .where(and(live(environmentId), eq(workflows.active, true)))
      .orderBy(asc(workflows.createdAt), asc(workflows.id));
  }

  /** Newest first; `query` matches the name or the trigger identifier, case-insensitively. */
  async list(
    environmentId: string,
    page: number,
    limit: number,
    query?: string,
  ): Promise<{ rows: WorkflowRow[]; total: number }> {
    const pattern = query ? `%${escapeLike(query)}%` : undefined;
    const where = pattern
      ? and(live(environmentId), or(ilike(workflows.name, pattern), ilike(workflows.identifier, pattern)))
      : live(environmentId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(workflows)
        .where(where)
        .orderBy(desc(workflows.createdAt), desc(workflows.id))
        .limit(limit)
        .offset(page * limit),
      this.db.select({ total: count() }).from(workflows).where(where),
    ]);
    return { rows, total };
  }

  /**
   * The v2 list: `query` matches the name or the trigger identifier, `tags` any of the tags, `status`
   * active (published) or inactive; ordered by `orderBy` with the id as the tie-break.
   */
  async search(environmentId: string, options: WorkflowSearch): Promise<{ rows: WorkflowRow[]; total: number }> {
    const conditions: (SQL | undefined)[] = [live(environmentId)];
    if (options.query) {
      const pattern = `%${escapeLike(options.query)}%`;
      conditions.push(or(ilike(workflows.name, pattern), ilike(workflows.identifier, pattern)));
    }
    if (options.tags?.length) conditions.push(arrayOverlaps(workflows.tags, options.tags));
    const statuses = new Set(options.statuses ?? []);
    const published = and(eq(workflows.active, true), eq(workflows.draft, false));
    if (statuses.size && !(statuses.has('ACTIVE') && statuses.has('INACTIVE')))
      conditions.push(statuses.has('ACTIVE') ? published : statuses.has('INACTIVE') ? not(published!) : sql`false`);
    const where = and(...conditions);
    const column = { createdAt: workflows.createdAt, updatedAt: workflows.updatedAt, name: workflows.name }[
      options.orderBy
    ];
    const direction = options.orderDirection === 'ASC' ? asc : desc;
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(workflows)
        .where(where)
        .orderBy(direction(column), direction(workflows.id))
        .limit(options.limit)
        .offset(options.offset),
      this.db.select({ total: count() }).from(workflows).where(where),
    ]);
    return { rows, total };
  }

  /** Returns undefined when the trigger identifier is taken in this environment. */
  async create(
    scope: WorkflowScope,
    values: WorkflowValues,
    executor: DbExecutor = this.db,
  ): Promise<WorkflowRow | undefined> {
    try {
      const [row] = await executor
        .insert(workflows)
        .values({ id: newId(), ...scope, ...values })
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** A duplicate identifier surfaces as the driver's unique violation (see isUniqueViolation). */
  /**
   * With `expectedUpdatedAt`, only that version is changed (undefined otherwise), in the same statement: of
   * two saves of one version, the second finds the first's updated_at and changes nothing. Compared to the
   * millisecond, the precision a client reads; the new updated_at is later than the expected one even
   * within the same millisecond, so the version a save replaced never matches again.
   */
  async update(
    environmentId: string,
    id: string,
    changes: WorkflowChanges,
    executor: DbExecutor = this.db,
    expectedUpdatedAt?: Date,
  ): Promise<WorkflowRow | undefined> {
    const sameVersion = expectedUpdatedAt
      ? sql`date_trunc('milliseconds', ${workflows.updatedAt}) = ${expectedUpdatedAt.toISOString()}::timestamptz`
      : undefined;
    const updatedAt = new Date(Math.max(Date.now(), (expectedUpdatedAt?.getTime() ?? 0) + 1));
    const [row] = await executor
      .update(workflows)
      .set({ ...changes, updatedAt })
      .where(and(live(environmentId), eq(workflows.id, id), sameVersion))
      .returning();
    return row;
  }

  /** Insert or replace by trigger identifier in one statement, so processes booting together agree. */
  async upsertByIdentifier(scope: WorkflowScope, values: WorkflowValues): Promise<WorkflowRow> {
    const [row] = await this.db
      .insert(workflows)
      .values({ id: newId(), ...scope, ...values })
      .onConflictDoUpdate({
        target: [workflows.environmentId, workflows.identifier],
        targetWhere: sql`NOT ${workflows.deleted}`,
        set: { ...values, updatedAt: new Date() },
      })
      .returning();
    return row;
  }

  async softDelete(
    environmentId: string,
    id: string,
    deletedBy: string,
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<WorkflowRow | undefined> {
    const [row] = await executor
      .update(workflows)
      .set({ deleted: true, deletedAt: now, deletedBy, updatedAt: now })
      .where(and(live(environmentId), eq(workflows.id, id)))
      .returning();
    // A later workflow of the same identifier starts without them.
    if (row)
      await deleteResourceTranslations(executor, environmentId, {
        resourceType: 'workflow',
        resourceId: row.identifier,
      });
    return row;
  }

  /** The group of that name, created on first use (concurrent creators end up with the same row). */
  async findOrCreateGroup(scope: WorkflowScope, name: string): Promise<NotificationGroupRow> {
    await this.db
      .insert(notificationGroups)
      .values({ id: newId(), ...scope, name })
      .onConflictDoNothing();
    const [row] = await this.db
      .select()
      .from(notificationGroups)
      .where(and(eq(notificationGroups.environmentId, scope.environmentId), eq(notificationGroups.name, name)))
      .limit(1);
    return row;
  }

  async findGroupById(environmentId: string, id: string): Promise<NotificationGroupRow | undefined> {
    const [row] = await this.db
      .select()
      .from(notificationGroups)
      .where(and(eq(notificationGroups.environmentId, environmentId), eq(notificationGroups.id, id)))
      .limit(1);
    return row;
  }

  async findGroupsByIds(environmentId: string, ids: string[]): Promise<NotificationGroupRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(notificationGroups)
      .where(and(eq(notificationGroups.environmentId, environmentId), inArray(notificationGroups.id, ids)));
  }

  private async findOne(environmentId: string, condition: SQL): Promise<WorkflowRow | undefined> {
    const [row] = await this.db
      .select()
      .from(workflows)
      .where(and(live(environmentId), condition))
      .orderBy(asc(workflows.createdAt))
      .limit(1);
    return row;
  }
}
