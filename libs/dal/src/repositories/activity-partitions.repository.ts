import { Inject, Injectable } from '@nestjs/common';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { DROPPED_PARTITIONS_PREFIX, idTimeOf } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import type { RemovedRows } from '../schema/index.js';
import { environmentsIn, jobStillNeeded, UNFINISHED_JOB, UNFINISHED_JOBS } from './retention.repository.js';

/**
 * The tables partitioned by week of their UUIDv7 ids (migrations 0026 and 0029), in the order their
 * weeks are dropped: what a row needs to stay (its notification, its job) is decided before it.
 */
export const PARTITIONED_TABLES = ['notifications', 'trigger_events', 'jobs', 'execution_details', 'messages'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** A partition this small is read whole in a page or two whatever its plan says. */
const GROWN_MIN_PAGES = 8;

/** How long a drop waits for its table's lock before the run fails (and is retried). */
const LOCK_TIMEOUT = '5s';

/** One time-range partition of a table. */
export interface TimePartition {
  table: PartitionedTable;
  name: string;
  /** The UUIDv7 ids it holds: from `from` (included) to `to` (excluded). */
  from: string;
  to: string;
  /** The creation times it holds: from `start` (the time in `from`) to `end` (the time in `to`). */
  start: Date;
  end: Date;
}

/** What decides which rows of an expired partition stay. */
export interface PartitionExpiry {
  partition: TimePartition;
  /** Rows created since then stay. */
  cutoff: Date;
  /** The time pending work is judged at (a throttle pass counted until then stays). */
  now: Date;
}

const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * The week partitions of the activity tables: created ahead of the rows that will fill them, dropped
 * whole once their week is past the retention. The rows of a dropped week that stay (pending work and
 * what it needs, rows created after the cutoff) are copied into the table's default partition in the
 * same transaction as the drop.
 */
@Injectable()
export class ActivityPartitionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Creates the partitions covering `from` to `to` that do not exist yet; returns how many. */
  async ensure(from: Date, to: Date): Promise<number> {
    const result = await this.db.execute<{ created: number }>(sql`
      SELECT coalesce(sum(activity_partitions_ensure(t, ${dayOf(from)}::date, ${dayOf(to)}::date)), 0)::int AS created
      FROM unnest(${`{${PARTITIONED_TABLES.join(',')}}`}::text[]) t`);
    return result.rows[0].created;
  }

  /**
   * The partitions that have grown to more than twice the size their statistics describe (and past a
   * few pages): the ones whose cached plans were made for a smaller table.
   */
  async grownSinceAnalyzed(): Promise<string[]> {
    const result = await this.db.execute<{ name: string }>(sql`
      SELECT c.relname AS name
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ANY(${`{${PARTITIONED_TABLES.join(',')}}`}::regclass[])
        AND pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(${GROWN_MIN_PAGES}, 2 * c.relpages)`);
    return result.rows.map((row) => row.name);
  }

  /** ANALYZE of the partitions; one another process is analyzing is skipped. */
  async analyze(names: string[]): Promise<void> {
    for (const name of names) await this.db.execute(sql`ANALYZE (SKIP_LOCKED) ${sql.identifier(name)}`);
  }

  /** `table`'s time-range partitions (not the default one), oldest first. */
  async partitionsOf(table: PartitionedTable): Promise<TimePartition[]> {
    const result = await this.db.execute<{ name: string; bound: string }>(sql`
      SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ${table}::regclass`);
    const partitions: TimePartition[] = [];
    for (const { name, bound } of result.rows) {
      const range = /FROM \('([0-9a-f-]{36})'\) TO \('([0-9a-f-]{36})'\)/.exec(bound);
      if (range)
        partitions.push({
          table,
          name,
          from: range[1],
          to: range[2],
          start: new Date(idTimeOf(range[1])),
          end: new Date(idTimeOf(range[2])),
        });
    }
    return partitions.sort((a, b) => a.end.getTime() - b.end.getTime());
  }

  /**
   * Drops one partition, in a transaction of its own: the table is locked, the rows that stay are
   * copied aside, the partition is dropped and what stays goes back into the table, to its default
   * partition, the range having none any more. All of it or nothing. Dropping the weeks of
   * notifications before those of jobs and execution details keeps each step right on its own: a job
   * or a detail stays exactly when its notification does, wherever that is.
   *
   * The table's exclusive lock is the transaction's first: dropping a partition needs it anyway, and
   * taken later (after a lock on the partition alone) it deadlocks with writers, whose cached plans
   * lock every partition of the table. It waits for the statements running on the table and holds
   * new ones back until the commit; other tables are only read.
   */
  async drop(expiry: PartitionExpiry): Promise<RemovedRows> {
    const { table, name } = expiry.partition;
    const partition = sql.identifier(name);
    const keep = sql.identifier(`kept_${name}`);
    // Counted before the lock, which holds the table's writers back (trigger_events' are the api's
    // accepts) while the transaction runs. Only pending work adds rows to a week past the retention (a
    // late message of an old job, which stays), and only an erasure removes any: either, meanwhile,
    // makes the count off by its rows.
    const held = (await this.db.execute<{ held: number }>(sql`SELECT count(*)::int AS held FROM ${partition}`)).rows[0]
      .held;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
      // A partition filled since its last ANALYZE (autovacuum late or off) would have PostgreSQL sort
      // it whole for the walk over its environments rather than follow the index.
      await tx.execute(sql`SET LOCAL enable_sort = off`);
      await tx.execute(sql`LOCK TABLE ${sql.identifier(table)} IN ACCESS EXCLUSIVE MODE`);
      await tx.execute(sql`CREATE TEMP TABLE ${keep} (LIKE ${partition}) ON COMMIT DROP`);
      // The rows that stay are few (pending work): found by their own lookups, copied aside by id.
      const copied = await tx.execute<{ kept: number }>(sql`
        WITH staying AS MATERIALIZED (${stayingIds(expiry)}),
        copied AS (
          INSERT INTO ${keep}
          SELECT r.* FROM ${partition} r WHERE r.id = ANY(ARRAY(SELECT s.id FROM staying s))
          RETURNING 1)
        SELECT count(*)::int AS kept FROM copied`);
      await tx.execute(sql`DROP TABLE ${partition}`);
      await tx.execute(sql`INSERT INTO ${sql.identifier(table)} SELECT * FROM ${keep}`);
      return {
        [table]: held - copied.rows[0].kept,
        [`${DROPPED_PARTITIONS_PREFIX}${table}`]: 1,
      };
    });
  }
}

/**
 * The ids of the rows of an expired partition that stay:
 * - a notification created after the cutoff, one with a job not finished or still read by later runs,
 *   one merged into a digest whose notification exists, a digest's notification while one merged into
 *   it stays;
 * - a trigger event not finished, or with a notification that exists;
 * - a job or execution detail whose notification exists (the week's dropped ones no longer do);
 * - a message created after the cutoff, a snoozed one (its wake-up is pending work), one whose job is
 *   not finished.
 * Ids derived from a parent carry its time, so the parents of a week's rows are in that week's range:
 * looked up there by range (one partition). Only weeks from before ids were derived (migration 0027)
 * look for parents elsewhere, one by one. The reasons to stay are separate lookups joined by UNION, each
 * by an index where one can find it (unfinished jobs are the work in flight, few): as one OR-ed
 * condition PostgreSQL evaluates every reason for every row (measured: 1.2 s against 0.12 s for a week
 * of 250,000 notifications), and reading a week of jobs to find the unfinished ones took 0.18 s more.
 */
/**
 * The rows of a partition created since the cutoff (late rows of pending work), through its
 * (environment_id, created_at) index, an environment at a time: reading the whole partition for them
 * took longer than the rest of its drop.
 */
const createdSince = (partition: SQLWrapper, cutoff: Date): SQL => sql`
  SELECT r.id FROM (${environmentsIn(partition)}) e
  CROSS JOIN LATERAL (
    SELECT r.id FROM ${partition} r WHERE r.environment_id = e.environment_id AND r.created_at >= ${cutoff}
  ) r`;

function stayingIds({ partition: { table, name, from, to }, cutoff, now }: PartitionExpiry): SQL {
  const inRange = (column: string) => sql`${sql.raw(column)} >= ${from}::uuid AND ${sql.raw(column)} < ${to}::uuid`;
  const partition = sql.identifier(name);
  const needed = jobStillNeeded(now);
  // Jobs read after they finish: only digests and throttles have one (their partial index finds them).
  const retained = sql`j.type IN ('digest', 'throttle') AND (j.result ->> 'retainUntil')::timestamptz > ${now}`;
  // Constant: false (and the branch not run) for a week whose rows all have derived ids.
  const underived = sql`${from}::uuid < activity_children_derived_from()`;
  switch (table) {
    case 'notifications':
      return sql`
        ${createdSince(partition, cutoff)}
        UNION
        SELECT r.id FROM ${partition} r
        WHERE r.digested_notification_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM notifications d WHERE d.id = r.digested_notification_id)
        UNION
        SELECT u.notification_id FROM (${UNFINISHED_JOBS}) u WHERE ${inRange('u.notification_id')}
        UNION
        SELECT j.notification_id FROM jobs j WHERE ${inRange('j.id')} AND ${retained}
        UNION
        SELECT j.notification_id FROM jobs j WHERE ${underived} AND ${inRange('j.notification_id')} AND ${retained}
        UNION
        SELECT m.digested_notification_id FROM notifications m
        WHERE ${inRange('m.digested_notification_id')}
          AND (m.created_at >= ${cutoff} OR EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = m.id AND ${needed}))`;
    case 'trigger_events':
      // The week's notifications that stayed are few, in the default partition once their week is dropped.
      return sql`
        SELECT r.id FROM ${partition} r WHERE r.status IN ('received', 'processing')
        UNION
        SELECT n.event_id FROM notifications n WHERE ${inRange('n.id')}
        UNION
        SELECT r.id FROM ${partition} r
        WHERE ${underived} AND EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = r.id)`;
    case 'jobs':
    case 'execution_details':
      // The week's notifications that stayed are few: their rows are found through them, by index.
      return sql`
        SELECT r.id FROM notifications n JOIN ${partition} r ON r.notification_id = n.id
        WHERE ${inRange('n.id')}
        UNION
        SELECT r.id FROM ${partition} r
        WHERE ${underived} AND NOT (${inRange('r.notification_id')})
          AND EXISTS (SELECT 1 FROM notifications n WHERE n.id = r.notification_id)`;
    case 'messages':
      return sql`
        ${createdSince(partition, cutoff)}
        UNION
        SELECT r.id FROM ${partition} r WHERE r.snoozed_until IS NOT NULL
        UNION
        SELECT r.id FROM (${UNFINISHED_JOBS}) u JOIN ${partition} r ON r.job_id = u.id
        UNION
        SELECT r.id FROM ${partition} r
        WHERE ${underived} AND NOT (${inRange('r.job_id')})
          AND EXISTS (SELECT 1 FROM jobs j WHERE j.id = r.job_id AND ${UNFINISHED_JOB})`;
  }
}
