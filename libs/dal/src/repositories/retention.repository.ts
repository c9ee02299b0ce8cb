import { Inject, Injectable } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import { JOB_STATUSES, TERMINAL_JOB_STATUSES } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import type { RemovedRows } from '../schema/index.js';

/**
 * The last row a batch looked at: the next batch of the walk starts after it. `createdAt` is the
 * database's text of the timestamp, exact to the microsecond (a Date would round it down to the
 * millisecond, and the walk would look at that row again).
 */
export interface RetentionCursor {
  createdAt: string;
  id: string;
}

/** What one batch did: how many rows it looked at, where the walk goes on, what it removed. */
export interface RetentionBatch {
  examined: number;
  next?: RetentionCursor;
  removed: RemovedRows;
}

/** The tables the retention walks an environment at a time, through their (environment_id, …) indexes. */
export type RetainedTable = 'notifications' | 'trigger_events' | 'messages' | 'webhook_events';

/** One walk's bounds: the environment, rows created before `cutoff`, after `after`, `limit` at a time. */
export interface RetentionWindow {
  environmentId: string;
  cutoff: Date;
  /** The time pending work is judged at (a throttle pass counted until then is kept). */
  now: Date;
  after?: RetentionCursor;
  limit: number;
}

const UNFINISHED = sql.raw(
  JOB_STATUSES.filter((status) => !TERMINAL_JOB_STATUSES.includes(status))
    .map((status) => `'${status}'`)
    .join(', '),
);
const FINISHED_EVENTS = sql.raw(`'done', 'failed', 'canceled'`);

/** Whether a job (alias `j`) is work still to do: the statuses of the jobs' partial status index. */
export const UNFINISHED_JOB = sql`j.status IN (${UNFINISHED})`;

/** The jobs still to do (`id`, `notification_id`), through their partial index: the work in flight. */
export const UNFINISHED_JOBS = sql`SELECT j.id, j.notification_id FROM jobs j WHERE ${UNFINISHED_JOB}`;

/** Whether a job (alias `j`) is work still to do, or a finished job later runs read until after `now`. */
export const jobStillNeeded = (now: Date): SQL =>
  sql`(${UNFINISHED_JOB} OR (j.result ->> 'retainUntil')::timestamptz > ${now})`;

/**
 * The oldest rows of one environment created before the cutoff, after the cursor: `limit` of them,
 * read backward from the table's (environment_id, created_at DESC, id DESC) index (hence NULLS
 * FIRST: that is the order of a backward scan; the columns are never null).
 */
function oldestRows(table: RetainedTable, window: RetentionWindow): SQL {
  const after = window.after
    ? sql`AND (t.created_at, t.id) > (${window.after.createdAt}::timestamptz, ${window.after.id}::uuid)`
    : sql``;
  return sql`
    SELECT t.id, t.created_at FROM ${sql.identifier(table)} t
    WHERE t.environment_id = ${window.environmentId} AND t.created_at < ${window.cutoff} ${after}
    ORDER BY t.created_at NULLS FIRST, t.id NULLS FIRST
    LIMIT ${window.limit}`;
}

/** The walk's position after the batch: the newest candidate it looked at (none: the walk is over). */
const BATCH_POSITION = sql`
  (SELECT count(*) FROM candidates)::int AS examined,
  (SELECT max(c.created_at)::text FROM candidates c) AS "lastCreatedAt",
  (SELECT max(c.id::text COLLATE "C") FROM candidates c
    WHERE c.created_at = (SELECT max(l.created_at) FROM candidates l)) AS "lastId"`;

interface BatchRow {
  examined: number;
  lastCreatedAt: string | null;
  lastId: string | null;
  [table: string]: unknown;
}

/**
 * Removes expired rows in bounded batches, oldest first, never touching pending work. Activity is
 * removed a notification at a time with its jobs and execution details (and the notifications merged
 * into it by a digest); trigger events once no notification refers to them; messages on their own.
 * Not tenant reads: each walk is bounded to one environment by its argument.
 */
@Injectable()
export class RetentionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * The environments that have rows in `table`, one index probe each. Deleted environments are among
   * them: their rows stay behind when they go, and expire by the deployment's settings.
   */
  async environmentsOf(table: RetainedTable): Promise<string[]> {
    const rows = await this.sortless<{ environmentId: string }>(sql`
      WITH RECURSIVE walk AS (
        (SELECT t.environment_id FROM ${sql.identifier(table)} t ORDER BY t.environment_id LIMIT 1)
        UNION ALL
        SELECT (SELECT t.environment_id FROM ${sql.identifier(table)} t WHERE t.environment_id > w.environment_id
          ORDER BY t.environment_id LIMIT 1)
        FROM walk w WHERE w.environment_id IS NOT NULL
      )
      SELECT environment_id AS "environmentId" FROM walk WHERE environment_id IS NOT NULL`);
    return rows.map((row) => row.environmentId);
  }

  /**
   * Notifications past the cutoff, with their jobs and execution details. Kept: a notification with
   * a job not finished (delayed, waiting in a digest window or schedule hold, queued, running) or
   * still read by later runs (result.retainUntil); one merged into a digest, while its digest's
   * notification exists (they go together); a digest's notification while one merged into it is
   * younger than the cutoff or has such a job.
   */
  async removeActivity(window: RetentionWindow): Promise<RetentionBatch> {
    const needed = jobStillNeeded(window.now);
    return this.batch(
      sql`
      WITH candidates AS MATERIALIZED (${oldestRows('notifications', window)}),
      leaders AS MATERIALIZED (
        SELECT n.id FROM notifications n
        WHERE n.id = ANY(ARRAY(SELECT c.id FROM candidates c))
          AND (n.digested_notification_id IS NULL
            OR NOT EXISTS (SELECT 1 FROM notifications d WHERE d.id = n.digested_notification_id))
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id AND ${needed})
          AND NOT EXISTS (
            SELECT 1 FROM notifications m
            WHERE m.digested_notification_id = n.id
              AND (m.created_at >= ${window.cutoff}
                OR EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = m.id AND ${needed})))
        FOR UPDATE OF n SKIP LOCKED
      ),
      doomed AS MATERIALIZED (
        SELECT l.id FROM leaders l
        UNION ALL
        SELECT m.id FROM notifications m WHERE m.digested_notification_id = ANY(ARRAY(SELECT l.id FROM leaders l))
      ),
      details AS (
        DELETE FROM execution_details x WHERE x.notification_id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1
      ),
      removed_jobs AS (DELETE FROM jobs j WHERE j.notification_id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1),
      removed AS (DELETE FROM notifications n WHERE n.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
      SELECT ${BATCH_POSITION},
        (SELECT count(*) FROM removed)::int AS notifications,
        (SELECT count(*) FROM removed_jobs)::int AS jobs,
        (SELECT count(*) FROM details)::int AS execution_details`,
      ['notifications', 'jobs', 'execution_details'],
    );
  }

  /**
   * Trigger events past the cutoff that are finished and that no notification refers to any more. An
   * event's notifications have ids in its millisecond (migration 0027), so each is looked for in the
   * event's partition only.
   */
  async removeTriggerEvents(window: RetentionWindow): Promise<RetentionBatch> {
    return this.batch(
      sql`
      WITH candidates AS MATERIALIZED (${oldestRows('trigger_events', window)}),
      removed AS (
        DELETE FROM trigger_events e
        WHERE e.id = ANY(ARRAY(SELECT c.id FROM candidates c))
          AND e.status IN (${FINISHED_EVENTS})
          AND NOT EXISTS (
            SELECT 1 FROM notifications n
            WHERE n.event_id = e.id AND n.id >= activity_children_from(e.id) AND n.id < activity_children_to(e.id))
        RETURNING 1
      )
      SELECT ${BATCH_POSITION}, (SELECT count(*) FROM removed)::int AS trigger_events`,
      ['trigger_events'],
    );
  }

  /**
   * Messages past the cutoff, of every channel. Kept: a snoozed message (its wake-up is pending
   * work) and one whose job is not finished (a provider retry waiting to run).
   */
  async removeMessages(window: RetentionWindow): Promise<RetentionBatch> {
    return this.batch(
      sql`
      WITH candidates AS MATERIALIZED (${oldestRows('messages', window)}),
      removed AS (
        DELETE FROM messages m
        WHERE m.id = ANY(ARRAY(SELECT c.id FROM candidates c))
          AND m.snoozed_until IS NULL
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = m.job_id AND ${UNFINISHED_JOB})
        RETURNING 1
      )
      SELECT ${BATCH_POSITION}, (SELECT count(*) FROM removed)::int AS messages`,
      ['messages'],
    );
  }

  /**
   * Webhook events past the cutoff with their deliveries; an event with a delivery still pending (a
   * retry due later) is kept with all of its deliveries.
   */
  async removeWebhookEvents(window: RetentionWindow): Promise<RetentionBatch> {
    return this.batch(
      sql`
      WITH candidates AS MATERIALIZED (${oldestRows('webhook_events', window)}),
      expired AS MATERIALIZED (
        SELECT c.id FROM candidates c
        WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = c.id AND d.status = 'pending')
      ),
      deliveries AS (
        DELETE FROM webhook_deliveries d WHERE d.event_id = ANY(ARRAY(SELECT e.id FROM expired e)) RETURNING 1
      ),
      events AS (
        DELETE FROM webhook_events w WHERE w.id = ANY(ARRAY(SELECT e.id FROM expired e)) RETURNING 1
      )
      SELECT ${BATCH_POSITION}, (SELECT count(*) FROM events)::int AS webhook_events,
        (SELECT count(*) FROM deliveries)::int AS webhook_deliveries`,
      ['webhook_events', 'webhook_deliveries'],
    );
  }

  /**
   * One batch is one statement, so one transaction: it removes whole units or nothing, and a run
   * that stops leaves the batches before it applied and the rest untouched.
   */
  private async batch(statement: SQL, tables: string[]): Promise<RetentionBatch> {
    const [row] = await this.sortless<BatchRow>(statement);
    const removed = Object.fromEntries(tables.map((table) => [table, Number(row[table] ?? 0)]));
    const next = row.lastId && row.lastCreatedAt ? { id: row.lastId, createdAt: row.lastCreatedAt } : undefined;
    return { examined: row.examined, next, removed };
  }

  /**
   * Runs the statement with sorting off. Without fresh statistics (a table filled since its last
   * ANALYZE) the planner expects a few rows before the cutoff, and would rather collect all of them
   * and sort than read the index in order and stop at the limit: on a large table, a read of the
   * environment's whole history for every batch.
   */
  private async sortless<Row extends Record<string, unknown>>(statement: SQL): Promise<Row[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_sort = off`);
      return (await tx.execute<Row>(statement)).rows as Row[];
    });
  }
}
