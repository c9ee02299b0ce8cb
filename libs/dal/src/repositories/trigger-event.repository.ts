import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { groupBy, type TriggerEventStatus } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { triggerEvents, type TriggerEventRow } from '../schema/index.js';
import { checkOnly, selectList, tableRows, uuids } from './table-sql.js';

export type NewTriggerEventRow = typeof triggerEvents.$inferInsert;

/** What the api needs of a stored event to enqueue its fan-out. */
export type StoredEventRef = Pick<TriggerEventRow, 'id' | 'environmentId'>;

/**
 * One statement text whatever the row count. The rows travel as one JSON array of
 * `[id, transactionId, workflowId, request]` (one native JSON.stringify; pg's array parameters escape
 * every element in JavaScript, which was a tenth of the bulk route's CPU); the environment and
 * organization, shared by every row of a request, are sent once.
 *
 * The transactionId is unique in each week partition (its own unique index: the conflict that makes
 * two concurrent requests with one transactionId insert one row) and looked for in the others here,
 * one index probe per row: `OFFSET 0` keeps the lookup a subquery run per row, where the planner could
 * otherwise turn it into a join that reads every event of the environment to hash their transactionIds
 * (what it chose on a partition of a few thousand rows, for a plan kept as the partition grew).
 */
const INSERT_EVENTS = `
  INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, request)
  SELECT (r ->> 0)::uuid, $1::uuid, $2::uuid, r ->> 1, (r ->> 2)::uuid, r -> 3
  FROM jsonb_array_elements($3::jsonb) AS r
  WHERE NOT EXISTS (SELECT 1 FROM trigger_events e WHERE e.environment_id = $1::uuid AND e.transaction_id = r ->> 1 OFFSET 0)
  ON CONFLICT DO NOTHING
  RETURNING id, environment_id`;

/** The accepted triggers: dedup by (environment, transactionId) and the outbox the fan-out reads. */
@Injectable()
export class TriggerEventRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * One insert per environment for many events; rows whose transactionId already exists are not
   * inserted and not returned.
   */
  async insertMany(rows: NewTriggerEventRow[]): Promise<StoredEventRef[]> {
    const byEnvironment = groupBy(rows, (row) => row.environmentId);
    const inserted = await Promise.all([...byEnvironment.values()].map((group) => this.insertForEnvironment(group)));
    return inserted.flat();
  }

  private async insertForEnvironment(rows: NewTriggerEventRow[]): Promise<StoredEventRef[]> {
    const { environmentId, organizationId } = rows[0];
    const json = JSON.stringify(rows.map((row) => [row.id, row.transactionId, row.workflowId, row.request]));
    const result = await this.db.$client.query<{ id: string; environment_id: string }>(INSERT_EVENTS, [
      environmentId,
      organizationId,
      json,
    ]);
    return result.rows.map((row) => ({ id: row.id, environmentId: row.environment_id }));
  }

  async setStatus(
    environmentId: string,
    id: string,
    status: TriggerEventStatus,
    error: string | null = null,
  ): Promise<void> {
    await this.db
      .update(triggerEvents)
      .set({ status, error, updatedAt: new Date() })
      .where(and(eq(triggerEvents.environmentId, environmentId), eq(triggerEvents.id, id)));
  }

  /**
   * Moves the event to `to` only while it is in one of `from` (a canceled or finished event stays
   * so); also refreshes updatedAt, the fan-out's heartbeat. Inside a chunk's transaction the row lock
   * orders the chunk against a concurrent cancel. Returns whether the event moved.
   */
  async transition(
    environmentId: string,
    id: string,
    from: TriggerEventStatus[],
    to: TriggerEventStatus,
    executor: DbExecutor = this.db,
  ): Promise<boolean> {
    const rows = await executor
      .update(triggerEvents)
      .set({ status: to, updatedAt: new Date() })
      .where(
        and(
          eq(triggerEvents.environmentId, environmentId),
          eq(triggerEvents.id, id),
          inArray(triggerEvents.status, from),
        ),
      )
      .returning({ id: triggerEvents.id });
    return rows.length > 0;
  }

  /** DELETE /v1/events/trigger before or during fan-out: the fan-out stops at its next chunk. */
  async cancelByTransaction(environmentId: string, transactionId: string): Promise<boolean> {
    const rows = await this.db
      .update(triggerEvents)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(
        and(
          eq(triggerEvents.environmentId, environmentId),
          eq(triggerEvents.transactionId, transactionId),
          inArray(triggerEvents.status, ['received', 'processing']),
        ),
      )
      .returning({ id: triggerEvents.id });
    return rows.length > 0;
  }

  /**
   * System-wide (the recovery sweeper has no environment). Events `received` since before
   * `receivedBefore` (their fan-out entry was probably lost) and events `processing` without a
   * heartbeat since before `processingBefore` (their worker died). Touches them so the next sweep
   * waits again.
   */
  async claimStale(
    receivedBefore: Date,
    processingBefore: Date,
    limit: number,
  ): Promise<Pick<TriggerEventRow, 'id' | 'environmentId'>[]> {
    const stale = await this.db
      .select({ id: triggerEvents.id })
      .from(triggerEvents)
      .where(
        or(
          and(eq(triggerEvents.status, 'received'), lt(triggerEvents.updatedAt, receivedBefore)),
          and(eq(triggerEvents.status, 'processing'), lt(triggerEvents.updatedAt, processingBefore)),
        ),
      )
      .orderBy(asc(triggerEvents.updatedAt))
      .limit(limit);
    if (stale.length === 0) return [];
    return this.db
      .update(triggerEvents)
      .set({ updatedAt: new Date() })
      .where(
        and(
          inArray(
            triggerEvents.id,
            stale.map((row) => row.id),
          ),
          inArray(triggerEvents.status, ['received', 'processing']),
        ),
      )
      .returning({ id: triggerEvents.id, environmentId: triggerEvents.environmentId });
  }

  /**
   * The fan-out's start: the listed events of one environment still to fan out (`received`, or
   * `processing` when a fan-out is re-run), in one statement (the worker fans out many small events at
   * once); a canceled, finished or missing event is not returned. Read, not claimed: the chunk writes
   * move the event on, and a fan-out run twice writes nothing twice.
   */
  async findToFanOut(environmentId: string, ids: string[], executor: DbExecutor = this.db): Promise<TriggerEventRow[]> {
    if (ids.length === 0) return [];
    const result = await executor.execute<Record<string, unknown>>(sql`
      SELECT ${selectList(triggerEvents, 'trigger_events')} FROM trigger_events
      WHERE trigger_events.id = ANY(${uuids(ids)})
        AND ${checkOnly(sql`trigger_events.environment_id = ${environmentId} AND trigger_events.status IN ('received', 'processing')`)}`);
    return tableRows<TriggerEventRow>(triggerEvents, result.rows);
  }

  /** `transition` for many events of one environment, in one statement; returns the ids moved. */
  async transitionMany(
    environmentId: string,
    ids: string[],
    from: TriggerEventStatus[],
    to: TriggerEventStatus,
    executor: DbExecutor = this.db,
  ): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const result = await executor.execute<{ id: string }>(sql`
      UPDATE trigger_events SET status = ${to}, updated_at = ${new Date()}
      WHERE trigger_events.id = ANY(${uuids(ids)})
        AND ${checkOnly(sql`trigger_events.environment_id = ${environmentId} AND trigger_events.status = ANY(${sql.param(from)}::text[])`)}
      RETURNING trigger_events.id`);
    return new Set(result.rows.map((row) => row.id));
  }
}
