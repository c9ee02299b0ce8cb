import { Inject, Injectable } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import { DROPPED_PARTITIONS_PREFIX, idFloorAt } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import type { RemovedRows } from '../schema/index.js';
import { jobStillNeeded, UNFINISHED_JOB } from './retention.repository.js';

/** The tables partitioned by day of their UUIDv7 ids (migration 0026), in the order their days are dropped. */
export const PARTITIONED_TABLES = ['notifications', 'jobs', 'execution_details', 'messages'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** How long a drop waits for its table's lock before the run fails (and is retried). */
const LOCK_TIMEOUT = '5s';

const DAY_MS = 86_400_000;

/** A partition's day, as its name carries it (`notifications_p20261129`). */
export type PartitionDay = string;

/** What decides which rows of an expired day stay. */
export interface DayExpiry {
  day: PartitionDay;
  /** Rows created since then stay. */
  cutoff: Date;
  /** The time pending work is judged at (a throttle pass counted until then stays). */
  now: Date;
}

const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
const dayStart = (day: PartitionDay): number =>
  Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T00:00:00Z`);
const partitionOf = (table: PartitionedTable, day: PartitionDay) => sql.identifier(`${table}_p${day}`);

/**
 * The day partitions of the activity tables: created ahead of the rows that will fill them, dropped
 * whole once their day is past the retention. The rows of a dropped day that stay (pending work and
 * what it needs, rows created after the cutoff) are copied into the table's default partition in the
 * same transaction as the drop.
 */
@Injectable()
export class ActivityPartitionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Creates the partitions of the days from `from` to `to` that do not exist yet; returns how many. */
  async ensure(from: Date, to: Date): Promise<number> {
    let created = 0;
    for (const table of PARTITIONED_TABLES) {
      const result = await this.db.execute<{ created: number }>(
        sql`SELECT activity_partitions_ensure(${table}, ${dayOf(from)}::date, ${dayOf(to)}::date) AS created`,
      );
      created += Number(result.rows[0].created);
    }
    return created;
  }

  /** The days of `table`'s partitions that end at or before `before`, oldest first. */
  async daysEndingBy(table: PartitionedTable, before: Date): Promise<PartitionDay[]> {
    const result = await this.db.execute<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ${table}::regclass AND c.relname ~ '_p[0-9]{8}$'`);
    return result.rows
      .map((row) => row.name.slice(-8))
      .filter((day) => dayStart(day) + DAY_MS <= before.getTime())
      .sort();
  }

  /**
   * Drops one day of `table`, in one transaction of its own: writes to the day's partition wait, the
   * rows that stay are copied aside, the partition is dropped (which waits for the table's running
   * statements, and holds new ones back until the commit) and what stays goes back into the table,
   * to its default partition, the day having none any more. All of it or nothing. Dropping the days
   * of notifications before those of jobs and execution details keeps each step right on its own:
   * a job or a detail stays exactly when its notification does, wherever that is.
   */
  async dropDay(table: PartitionedTable, expiry: DayExpiry): Promise<RemovedRows> {
    const partition = partitionOf(table, expiry.day);
    const keep = sql.identifier(`kept_${table}_${expiry.day}`);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
      await tx.execute(sql`LOCK TABLE ${partition} IN SHARE MODE`);
      await tx.execute(sql`CREATE TEMP TABLE ${keep} ON COMMIT DROP AS ${keptRows(table, expiry)}`);
      const counts = await tx.execute<{ all: number; kept: number }>(sql`
        SELECT (SELECT count(*) FROM ${partition})::int AS all, (SELECT count(*) FROM ${keep})::int AS kept`);
      await tx.execute(sql`DROP TABLE ${partition}`);
      await tx.execute(sql`INSERT INTO ${sql.identifier(table)} SELECT * FROM ${keep}`);
      return {
        [table]: counts.rows[0].all - counts.rows[0].kept,
        [`${DROPPED_PARTITIONS_PREFIX}${table}`]: 1,
      };
    });
  }
}

/**
 * The rows of an expired day that stay:
 * - a notification created after the cutoff, one with a job not finished or still read by later runs,
 *   one merged into a digest whose notification exists, a digest's notification while one merged into
 *   it stays;
 * - a job or execution detail whose notification exists (the day's dropped ones no longer do);
 * - a message created after the cutoff, a snoozed one (its wake-up is pending work), one whose job is
 *   not finished.
 * Ids derived from a parent carry its time, so the parents of a day's rows are mostly in that day's
 * range: looked up there by range (one partition), elsewhere one by one.
 */
function keptRows(table: PartitionedTable, { day, cutoff, now }: DayExpiry): SQL {
  const start = dayStart(day);
  const [lo, hi] = [idFloorAt(new Date(start)), idFloorAt(new Date(start + DAY_MS))];
  const inDay = (column: string) => sql.raw(`${column} >= '${lo}'::uuid AND ${column} < '${hi}'::uuid`);
  const partition = partitionOf(table, day);
  const needed = jobStillNeeded(now);
  switch (table) {
    case 'notifications':
      return sql`
        SELECT n.* FROM ${partition} n
        WHERE n.created_at >= ${cutoff}
          OR n.id IN (SELECT j.notification_id FROM jobs j WHERE ${inDay('j.notification_id')} AND ${needed})
          OR n.id IN (
            SELECT m.digested_notification_id FROM notifications m
            WHERE ${inDay('m.digested_notification_id')}
              AND (m.created_at >= ${cutoff} OR EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = m.id AND ${needed})))
          OR (n.digested_notification_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM notifications d WHERE d.id = n.digested_notification_id))`;
    case 'jobs':
    case 'execution_details':
      return sql`
        SELECT c.* FROM ${partition} c
        WHERE c.notification_id IN (SELECT n.id FROM notifications n WHERE ${inDay('n.id')})
          OR (NOT (${inDay('c.notification_id')}) AND EXISTS (SELECT 1 FROM notifications n WHERE n.id = c.notification_id))`;
    case 'messages':
      return sql`
        SELECT m.* FROM ${partition} m
        WHERE m.created_at >= ${cutoff} OR m.snoozed_until IS NOT NULL
          OR m.job_id IN (SELECT j.id FROM jobs j WHERE ${inDay('j.id')} AND ${UNFINISHED_JOB})
          OR (NOT (${inDay('m.job_id')}) AND EXISTS (SELECT 1 FROM jobs j WHERE j.id = m.job_id AND ${UNFINISHED_JOB}))`;
  }
}
