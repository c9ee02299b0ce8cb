import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  layouts,
  notificationGroups,
  translations,
  workflows,
  type LayoutRow,
  type TranslationContent,
  type WorkflowRow,
} from '../schema/index.js';
import type { LayoutValues } from './layout.repository.js';
import { deleteResourceTranslations, upsertTranslations, type TranslationResource } from './translation.repository.js';
import type { WorkflowScope, WorkflowValues } from './workflow.repository.js';

/** What an environment holds that publishing copies: its live workflows (with their group names) and layouts. */
export interface EnvironmentContent {
  workflows: WorkflowRow[];
  /** notification group id → name, for the groups the workflows reference. */
  groupNames: Map<string, string>;
  layouts: LayoutRow[];
  /** `workflow:<identifier>` or `layout:<layoutId>` → locale → content. */
  translations: Map<string, Record<string, TranslationContent>>;
}

/** The key of a resource's translations in EnvironmentContent. */
export const translationsKey = (resource: TranslationResource) => `${resource.resourceType}:${resource.resourceId}`;

const sqlUnnestTags = sql<string>`unnest(${workflows.tags})`;

/**
 * The writes of one publish, bound to its transaction and its target environment: every method
 * writes into that environment only.
 */
export class PublishWriter {
  constructor(
    /** The publish's transaction, for writes that must commit with it (its webhook events). */
    readonly tx: DbExecutor,
    private readonly target: WorkflowScope,
  ) {}

  /** The target's group of that name, created on first use. */
  async groupId(name: string): Promise<string> {
    await this.tx
      .insert(notificationGroups)
      .values({ id: newId(), ...this.target, name })
      .onConflictDoNothing();
    const [row] = await this.tx
      .select({ id: notificationGroups.id })
      .from(notificationGroups)
      .where(and(eq(notificationGroups.environmentId, this.target.environmentId), eq(notificationGroups.name, name)))
      .limit(1);
    return row.id;
  }

  async insertWorkflow(values: WorkflowValues): Promise<WorkflowRow> {
    const [row] = await this.tx
      .insert(workflows)
      .values({ id: newId(), ...this.target, ...values })
      .returning();
    return row;
  }

  async updateWorkflow(id: string, values: WorkflowValues): Promise<WorkflowRow | undefined> {
    const [row] = await this.tx
      .update(workflows)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(workflows.environmentId, this.target.environmentId), eq(workflows.id, id)))
      .returning();
    return row;
  }

  async softDeleteWorkflow(id: string, deletedBy: string, now: Date): Promise<WorkflowRow | undefined> {
    const [row] = await this.tx
      .update(workflows)
      .set({ deleted: true, deletedAt: now, deletedBy, updatedAt: now })
      .where(and(eq(workflows.environmentId, this.target.environmentId), eq(workflows.id, id)))
      .returning();
    return row;
  }

  /** Inserts the layout, or replaces the target's live layout of the same layoutId. */
  async upsertLayout(existingId: string | undefined, values: LayoutValues): Promise<void> {
    // At most one default layout per environment: the published default takes the place of the target's.
    if (values.isDefault) await this.clearDefaultLayout(existingId);
    if (existingId) {
      await this.tx
        .update(layouts)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(layouts.environmentId, this.target.environmentId), eq(layouts.id, existingId)));
      return;
    }
    await this.tx.insert(layouts).values({ id: newId(), ...this.target, ...values });
  }

  /** The resource's translations become exactly these locales (none: all removed). */
  async replaceTranslations(resource: TranslationResource, locales: Record<string, TranslationContent>): Promise<void> {
    await deleteResourceTranslations(this.tx, this.target.environmentId, resource);
    await upsertTranslations(
      this.tx,
      this.target,
      Object.entries(locales).map(([locale, content]) => ({ ...resource, locale, content })),
    );
  }

  async softDeleteLayout(id: string): Promise<void> {
    await this.tx
      .update(layouts)
      .set({ deleted: true, isDefault: false, updatedAt: new Date() })
      .where(and(eq(layouts.environmentId, this.target.environmentId), eq(layouts.id, id)));
  }

  private async clearDefaultLayout(exceptId: string | undefined): Promise<void> {
    const conditions = [
      eq(layouts.environmentId, this.target.environmentId),
      eq(layouts.isDefault, true),
      eq(layouts.deleted, false),
    ];
    if (exceptId) conditions.push(ne(layouts.id, exceptId));
    await this.tx
      .update(layouts)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(...conditions));
  }
}

/** Reads and writes for comparing and publishing environments (workflows, their groups, layouts). */
@Injectable()
export class EnvironmentContentRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async contentOf(environmentId: string): Promise<EnvironmentContent> {
    const [workflowRows, layoutRows, translationRows] = await Promise.all([
      this.db
        .select()
        .from(workflows)
        .where(and(eq(workflows.environmentId, environmentId), eq(workflows.deleted, false)))
        .orderBy(asc(workflows.createdAt), asc(workflows.id)),
      this.db
        .select()
        .from(layouts)
        .where(and(eq(layouts.environmentId, environmentId), eq(layouts.deleted, false)))
        .orderBy(asc(layouts.createdAt), asc(layouts.id)),
      this.db.select().from(translations).where(eq(translations.environmentId, environmentId)),
    ]);
    const byResource = new Map<string, Record<string, TranslationContent>>();
    for (const row of translationRows) {
      const key = translationsKey(row);
      byResource.set(key, { ...byResource.get(key), [row.locale]: row.content });
    }
    const groupIds = [...new Set(workflowRows.map((row) => row.notificationGroupId))];
    const groups = groupIds.length
      ? await this.db
          .select({ id: notificationGroups.id, name: notificationGroups.name })
          .from(notificationGroups)
          .where(and(eq(notificationGroups.environmentId, environmentId), inArray(notificationGroups.id, groupIds)))
      : [];
    return {
      workflows: workflowRows,
      groupNames: new Map(groups.map((group) => [group.id, group.name])),
      layouts: layoutRows,
      translations: byResource,
    };
  }

  /** The distinct tags of the environment's live workflows, sorted. */
  async workflowTags(environmentId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ tag: sqlUnnestTags })
      .from(workflows)
      .where(and(eq(workflows.environmentId, environmentId), eq(workflows.deleted, false)));
    return rows
      .map((row) => row.tag)
      .filter((tag): tag is string => typeof tag === 'string' && tag !== '')
      .sort();
  }

  /** Runs `apply` in one transaction: an error anywhere rolls back every write of the publish. */
  async publish<T>(target: WorkflowScope, apply: (writer: PublishWriter) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => apply(new PublishWriter(tx, target)));
  }
}
