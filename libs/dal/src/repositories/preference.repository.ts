import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { preferences, type PreferenceRow, type StoredSchedule } from '../schema/index.js';
import { uuids } from './table-sql.js';

export interface PreferenceScope {
  environmentId: string;
  organizationId: string;
}

/** A subscriber's preference rows: the global one (workflowId null) and one per workflow. */
@Injectable()
export class PreferenceRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findForSubscriber(environmentId: string, subscriberId: string): Promise<PreferenceRow[]> {
    return this.selectInEnvironment(environmentId, eq(preferences.subscriberId, subscriberId));
  }

  /** The global rows of these subscribers and their rows for one workflow, in one query. */
  async findLayers(environmentId: string, subscriberIds: string[], workflowId: string): Promise<PreferenceRow[]> {
    if (subscriberIds.length === 0) return [];
    return this.selectInEnvironment(
      environmentId,
      sql`${preferences.subscriberId} = ANY(${uuids(subscriberIds)})`,
      or(isNull(preferences.workflowId), eq(preferences.workflowId, workflowId)),
    );
  }

  /** The global preference rows (schedules among them) of many subscribers, in one query. */
  async findGlobals(environmentId: string, subscriberIds: string[]): Promise<PreferenceRow[]> {
    if (subscriberIds.length === 0) return [];
    return this.selectInEnvironment(
      environmentId,
      sql`${preferences.subscriberId} = ANY(${uuids(subscriberIds)})`,
      isNull(preferences.workflowId),
    );
  }

  async findGlobal(environmentId: string, subscriberId: string): Promise<PreferenceRow | undefined> {
    const [row] = await this.selectInEnvironment(
      environmentId,
      eq(preferences.subscriberId, subscriberId),
      isNull(preferences.workflowId),
    ).limit(1);
    return row;
  }

  /**
   * Merges the channels sent into the stored ones (one statement, safe under concurrent writers).
   * `schedule`: undefined keeps the stored schedule, null removes it. Only the global row has one.
   */
  async upsert(
    scope: PreferenceScope,
    subscriberId: string,
    workflowId: string | null,
    channels: Record<string, boolean>,
    schedule?: StoredSchedule | null,
    executor: DbExecutor = this.db,
  ): Promise<PreferenceRow> {
    const [row] = await executor
      .insert(preferences)
      .values({
        id: newId(),
        environmentId: scope.environmentId,
        organizationId: scope.organizationId,
        subscriberId,
        workflowId,
        channels,
        schedule: schedule ?? null,
      })
      .onConflictDoUpdate({
        target: [preferences.environmentId, preferences.subscriberId, preferences.workflowId],
        set: {
          channels: sql`${preferences.channels} || excluded.channels`,
          schedule: schedule === undefined ? sql`${preferences.schedule}` : sql`excluded.schedule`,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row;
  }

  private selectInEnvironment(environmentId: string, ...conditions: (SQL | undefined)[]) {
    return this.db
      .select()
      .from(preferences)
      .where(and(eq(preferences.environmentId, environmentId), ...conditions));
  }
}
