import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { isId, newId } from '#common';
import { isUniqueViolation, type Database, type DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { layouts, workflows, type LayoutRow } from '../schema/index.js';
import { deleteResourceTranslations } from './translation.repository.js';

export interface LayoutScope {
  environmentId: string;
  organizationId: string;
}

export interface LayoutValues {
  layoutId: string;
  name: string;
  controlValues: Record<string, unknown>;
  isDefault: boolean;
  isTranslationEnabled?: boolean;
}

export interface LayoutListQuery {
  limit: number;
  offset: number;
  orderBy: 'createdAt' | 'updatedAt' | 'name';
  orderDirection: 'ASC' | 'DESC';
  query?: string;
}

/** What finding a layout's users needs: its two names, and whether steps that name none fall back to it. */
export type LayoutRef = Pick<LayoutRow, 'id' | 'layoutId' | 'isDefault'>;

/** A workflow that names a layout, as `usage` lists it. */
export interface LayoutUser {
  workflowId: string;
  name: string;
}

/** Layouts never deleted for real: a soft-deleted one frees its layoutId and its default place. */
const live = (environmentId: string) => and(eq(layouts.environmentId, environmentId), eq(layouts.deleted, false));

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

@Injectable()
export class LayoutRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Undefined when the layoutId is taken in the environment. A default layout takes the place of the
   * environment's old default in the same transaction, so there is never none nor two.
   */
  async create(scope: LayoutScope, values: LayoutValues): Promise<LayoutRow | undefined> {
    try {
      return await this.db.transaction(async (tx) => {
        const first = !(await this.defaultOf(tx, scope.environmentId));
        const isDefault = values.isDefault || first;
        if (isDefault) await this.unsetDefault(tx, scope.environmentId);
        const [row] = await tx
          .insert(layouts)
          .values({ id: newId(), ...scope, ...values, isDefault })
          .returning();
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** By layoutId, else by internal id (the routes accept either, as Novu's do). */
  async findByKey(environmentId: string, key: string): Promise<LayoutRow | undefined> {
    const byKey = isId(key) ? or(eq(layouts.layoutId, key), eq(layouts.id, key)) : eq(layouts.layoutId, key);
    const rows = await this.db
      .select()
      .from(layouts)
      .where(and(live(environmentId), byKey))
      .limit(2);
    return rows.find((row) => row.layoutId === key) ?? rows[0];
  }

  async countLive(environmentId: string): Promise<number> {
    const [row] = await this.db.select({ total: count() }).from(layouts).where(live(environmentId));
    return row?.total ?? 0;
  }

  /** Every live layout of the environment, for the delivery cache (environments hold few layouts). */
  async listAll(environmentId: string): Promise<LayoutRow[]> {
    return this.db.select().from(layouts).where(live(environmentId)).orderBy(asc(layouts.createdAt));
  }

  async list(environmentId: string, query: LayoutListQuery): Promise<{ rows: LayoutRow[]; total: number }> {
    const conditions: SQL[] = [live(environmentId)!];
    if (query.query) conditions.push(ilike(layouts.name, `%${escapeLike(query.query)}%`));
    const where = and(...conditions);
    const column = { createdAt: layouts.createdAt, updatedAt: layouts.updatedAt, name: layouts.name }[query.orderBy];
    const direction = query.orderDirection === 'ASC' ? asc : desc;
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(layouts)
        .where(where)
        .orderBy(direction(column), direction(layouts.id))
        .limit(query.limit)
        .offset(query.offset),
      this.db.select({ total: count() }).from(layouts).where(where),
    ]);
    return { rows, total };
  }

  /** Undefined when the layout is gone. Making a layout the default unsets the old default in the same transaction. */
  async update(
    environmentId: string,
    id: string,
    changes: Partial<Pick<LayoutRow, 'name' | 'controlValues' | 'isDefault' | 'isTranslationEnabled'>>,
  ): Promise<LayoutRow | undefined> {
    return this.db.transaction(async (tx) => {
      if (changes.isDefault) await this.unsetDefault(tx, environmentId, id);
      const [row] = await tx
        .update(layouts)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(environmentId), eq(layouts.id, id)))
        .returning();
      return row;
    });
  }

  /**
   * Soft-deletes the layout unless a workflow uses it; answers the users that kept it. Both run in one
   * transaction that locks the layout row, so a concurrent delete cannot pass the check twice.
   */
  async deleteUnlessUsed(environmentId: string, layout: LayoutRef): Promise<{ deleted: boolean; users: LayoutUser[] }> {
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: layouts.id })
        .from(layouts)
        .where(and(live(environmentId), eq(layouts.id, layout.id)))
        .for('update');
      if (!locked) return { deleted: false, users: [] };
      const users = await this.users(environmentId, layout, tx);
      if (users.length > 0) return { deleted: false, users };
      await tx
        .update(layouts)
        .set({ deleted: true, isDefault: false, updatedAt: new Date() })
        .where(and(eq(layouts.environmentId, environmentId), eq(layouts.id, layout.id)));
      // A later layout of the same layoutId starts without them.
      await deleteResourceTranslations(tx, environmentId, { resourceType: 'layout', resourceId: layout.layoutId });
      return { deleted: true, users };
    });
  }

  /**
   * The live workflows of the layout's environment with an email step (or variant) that names it by
   * layoutId or internal id, in its v1 template or its v2 control values; for the default layout
   * also those with an email step that names no layout at all (an explicit null opts out).
   */
  async users(environmentId: string, layout: LayoutRef, executor: DbExecutor = this.db): Promise<LayoutUser[]> {
    const names = sql`jsonb_build_array(to_jsonb(${layout.layoutId}::text), to_jsonb(${layout.id}::text))`;
    const emailSteps = sql`(
      SELECT s FROM jsonb_array_elements(${workflows.steps}) AS s WHERE s->'template'->>'type' = 'email'
      UNION ALL
      SELECT v FROM jsonb_array_elements(${workflows.steps}) AS s, jsonb_array_elements(COALESCE(s->'variants', '[]'::jsonb)) AS v
      WHERE v->'template'->>'type' = 'email'
    )`;
    const named = sql`EXISTS (SELECT 1 FROM ${emailSteps} AS e(s) WHERE ${names} @> jsonb_build_array(COALESCE(e.s->'template'->'layoutId', e.s->'controlValues'->'layoutId')))`;
    const unnamed = sql`EXISTS (SELECT 1 FROM ${emailSteps} AS e(s) WHERE NOT (e.s->'template') ? 'layoutId' AND NOT COALESCE(e.s->'controlValues', '{}'::jsonb) ? 'layoutId')`;
    return executor
      .select({ workflowId: workflows.identifier, name: workflows.name })
      .from(workflows)
      .where(
        and(
          eq(workflows.environmentId, environmentId),
          eq(workflows.deleted, false),
          layout.isDefault ? sql`(${named} OR ${unnamed})` : named,
        ),
      )
      .orderBy(asc(workflows.name));
  }

  private async defaultOf(executor: DbExecutor, environmentId: string): Promise<LayoutRow | undefined> {
    const [row] = await executor
      .select()
      .from(layouts)
      .where(and(live(environmentId), eq(layouts.isDefault, true)))
      .limit(1);
    return row;
  }

  private async unsetDefault(executor: DbExecutor, environmentId: string, except?: string): Promise<void> {
    const conditions = [live(environmentId), eq(layouts.isDefault, true)];
    if (except) conditions.push(sql`${layouts.id} <> ${except}`);
    await executor
      .update(layouts)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(...conditions));
  }
}
