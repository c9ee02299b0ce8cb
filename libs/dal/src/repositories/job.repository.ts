import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gt, gte, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { JobStatus } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { jobIdOf, jobs, type JobResult, type JobRow, type NewJobRow, type ProviderRetry } from '../schema/index.js';
import { bulkInsert, checkOnly, selectList, tableRows, uuids } from './table-sql.js';

export type JobChanges = Partial<Pick<JobRow, 'status' | 'digest' | 'runAt' | 'error' | 'providerId' | 'result'>>;

/** A step job's recorded outcome; runAt, error and providerId are kept as they were when not given. */
export interface JobOutcome {
  id: string;
  status: JobStatus;
  runAt?: Date;
  error?: string;
  providerId?: string;
  /** Set when the job waits to retry a provider call; any other outcome clears it. */
  providerRetry?: ProviderRetry;
  /** What the step leaves for the steps after it; kept as it was when not given. */
  result?: JobResult;
  /**
   * The job ran without a claim (its row stayed claimable meanwhile): the outcome is written only if
   * the row is still claimable, and counts as one attempt. Otherwise the runner holds the claim.
   */
  unclaimed?: boolean;
}

/** Jobs a runner may take: waiting to run, or waiting (delayed) and due at `now`. */
const claimable = (now: Date) =>
  sql`(jobs.status IN ('pending', 'queued') OR (jobs.status = 'delayed' AND (jobs.run_at IS NULL OR jobs.run_at <= ${now})))`;

/** Identifies the digest window a job belongs to. */
export interface DigestKey {
  subscriberId: string;
  workflowId: string;
  stepIndex: number;
  digestValue: string;
}

/** Identifies the counter of a throttle step. */
export interface ThrottleKey {
  subscriberId: string;
  workflowId: string;
  stepId: string;
  throttleKey: string;
}

/** Step jobs: one row per workflow step of a notification, run in stepIndex order. */
@Injectable()
export class JobRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insertMany(rows: NewJobRow[], executor: DbExecutor = this.db): Promise<JobRow[]> {
    const identified = rows.map((row) => ({ ...row, id: jobIdOf(row.notificationId, row.stepIndex) }));
    return bulkInsert<NewJobRow, JobRow>(executor, jobs, identified, {
      onConflictDoNothing: ['id'],
      returning: 'all',
    });
  }

  /**
   * The fan-out's write: rows completed by the values they share (the step and event), sent
   * once; returns what the fan-out enqueues of the rows inserted.
   */
  async insertBatch(
    rows: Partial<NewJobRow>[],
    shared: Partial<NewJobRow>,
    executor: DbExecutor = this.db,
  ): Promise<Pick<JobRow, 'id' | 'environmentId' | 'status' | 'type'>[]> {
    return bulkInsert(executor, jobs, rows, {
      shared,
      onConflictDoNothing: ['id'],
      returning: ['id', 'environmentId', 'status', 'type'],
    });
  }

  /** The jobs of many notifications, in one query. */
  async findByNotifications(environmentId: string, notificationIds: string[]): Promise<JobRow[]> {
    if (notificationIds.length === 0) return [];
    return this.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.environmentId, environmentId), inArray(jobs.notificationId, notificationIds)));
  }

  /**
   * Takes jobs of one environment for running, in one statement (a busy worker batches its claims):
   * only one concurrent caller wins each job. A waiting (delayed) job is taken only once it is due, so
   * an early or repeated queue entry finds nothing to do.
   */
  async claimMany(environmentId: string, ids: string[], now: Date): Promise<JobRow[]> {
    if (ids.length === 0) return [];
    const result = await this.db.execute<Record<string, unknown>>(sql`
      UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, updated_at = ${new Date()}
      WHERE jobs.id = ANY(${uuids(ids)}) AND ${checkOnly(sql`jobs.environment_id = ${environmentId} AND ${claimable(now)}`)}
      RETURNING ${selectList(jobs, 'jobs')}`);
    return tableRows<JobRow>(jobs, result.rows);
  }

  /** The listed jobs of one environment in any state, for a runner to sort out (raw: this is the step runner's hottest read). */
  async findForRun(environmentId: string, ids: string[]): Promise<JobRow[]> {
    if (ids.length === 0) return [];
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT ${selectList(jobs, 'jobs')} FROM jobs
      WHERE jobs.id = ANY(${uuids(ids)}) AND ${checkOnly(sql`jobs.environment_id = ${environmentId}`)}`);
    return tableRows<JobRow>(jobs, result.rows);
  }

  /** Which of the listed jobs of one environment still exist. */
  async existing(environmentId: string, ids: string[], executor: DbExecutor = this.db): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const result = await executor.execute<{ id: string }>(sql`
      SELECT jobs.id FROM jobs
      WHERE jobs.id = ANY(${uuids(ids)}) AND ${checkOnly(sql`jobs.environment_id = ${environmentId}`)}`);
    return new Set(result.rows.map((row) => row.id));
  }

  async update(
    environmentId: string,
    id: string,
    changes: JobChanges,
    executor: DbExecutor = this.db,
  ): Promise<JobRow | undefined> {
    const [row] = await executor
      .update(jobs)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(jobs.environmentId, environmentId), eq(jobs.id, id)))
      .returning();
    return row;
  }

  /**
   * `update` of status, runAt, error and providerId for many jobs of one environment, in one
   * statement; returns the ids written (an unclaimed outcome whose row was taken meanwhile is not).
   */
  async setOutcomes(
    environmentId: string,
    outcomes: JobOutcome[],
    now: Date,
    executor: DbExecutor = this.db,
  ): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    // One JSON array per outcome, like bulkInsert's rows.
    const values = JSON.stringify(
      outcomes.map((o) => [
        o.id,
        o.status,
        o.runAt ?? null,
        o.error ?? null,
        o.providerId ?? null,
        o.unclaimed ?? false,
        o.providerRetry ?? null,
        o.result ?? null,
      ]),
    );
    const result = await executor.execute<{ id: string }>(sql`
      UPDATE jobs SET status = v.status, run_at = COALESCE(v.run_at, jobs.run_at), error = COALESCE(v.error, jobs.error),
        provider_id = COALESCE(v.provider_id, jobs.provider_id), provider_retry = v.provider_retry, result = COALESCE(v.result, jobs.result), attempts = jobs.attempts + CASE WHEN v.unclaimed THEN 1 ELSE 0 END,
        updated_at = ${new Date()}
      FROM (
        SELECT (r ->> 0)::uuid AS id, r ->> 1 AS status, (r ->> 2)::timestamptz AS run_at, r ->> 3 AS error, r ->> 4 AS provider_id,
          (r ->> 5)::boolean AS unclaimed, NULLIF(r -> 6, 'null'::jsonb) AS provider_retry,
          NULLIF(r -> 7, 'null'::jsonb) AS result
        FROM jsonb_array_elements(${values}::jsonb) AS r
      ) AS v
      WHERE jobs.id = ANY(${uuids(outcomes.map((o) => o.id))}) AND jobs.id = v.id
        AND ${checkOnly(sql`jobs.environment_id = ${environmentId} AND (NOT v.unclaimed OR ${claimable(now)})`)}
      RETURNING jobs.id`);
    return new Set(result.rows.map((row) => row.id));
  }

  /** Moves the listed jobs that are still in one of `from` to `status`; returns the moved rows. */
  async transition(
    environmentId: string,
    ids: string[],
    from: JobStatus[],
    status: JobStatus,
    executor: DbExecutor = this.db,
  ): Promise<JobRow[]> {
    if (ids.length === 0) return [];
    return executor
      .update(jobs)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(jobs.environmentId, environmentId), inArray(jobs.id, ids), inArray(jobs.status, from)))
      .returning();
  }

  /** The jobs after `stepIndex` of a notification that have not started. */
  async findPendingAfter(
    environmentId: string,
    notificationId: string,
    stepIndex: number,
    executor: DbExecutor = this.db,
  ): Promise<JobRow[]> {
    return executor
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.environmentId, environmentId),
          eq(jobs.notificationId, notificationId),
          gt(jobs.stepIndex, stepIndex),
          eq(jobs.status, 'pending'),
        ),
      )
      .orderBy(asc(jobs.stepIndex));
  }

  /**
   * For each finished step (of distinct notifications), moves the first pending job after it to
   * `queued`, in one statement; returns the queued jobs.
   */
  async queueNextMany(
    environmentId: string,
    finished: { notificationId: string; stepIndex: number }[],
    executor: DbExecutor = this.db,
  ): Promise<Pick<JobRow, 'id' | 'environmentId' | 'transactionId'>[]> {
    if (finished.length === 0) return [];
    // Per finished step, one probe of (notification_id, step_index); the ids found are then updated by key.
    const result = await executor.execute<Pick<JobRow, 'id' | 'environmentId' | 'transactionId'>>(sql`
      UPDATE jobs SET status = 'queued', updated_at = ${new Date()}
      WHERE jobs.id = ANY(ARRAY(
        SELECT next.id
        FROM unnest(${uuids(finished.map((row) => row.notificationId))}, ${sql.param(`{${finished.map((row) => row.stepIndex).join(',')}}`)}::int[])
          AS done(notification_id, step_index)
        CROSS JOIN LATERAL (
          SELECT j.id FROM jobs j
          WHERE j.notification_id = done.notification_id AND j.step_index > done.step_index
            AND ${checkOnly(sql`j.environment_id = ${environmentId} AND j.status = 'pending'`)}
          ORDER BY j.step_index LIMIT 1
        ) AS next
      )) AND ${checkOnly(sql`jobs.status = 'pending'`)}
      RETURNING jobs.id, jobs.environment_id AS "environmentId", jobs.transaction_id AS "transactionId"`);
    return result.rows;
  }

  /** The heartbeat of a long-running job, so the recovery sweeper does not take it for a dead worker's. */
  async touchRunning(environmentId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(jobs)
      .set({ updatedAt: new Date() })
      .where(and(eq(jobs.environmentId, environmentId), inArray(jobs.id, ids), eq(jobs.status, 'running')));
  }

  /** Cancels the not yet finished waiting jobs of a transaction (DELETE /v1/events/trigger). */
  async cancelByTransaction(
    environmentId: string,
    transactionId: string,
    executor: DbExecutor = this.db,
  ): Promise<JobRow[]> {
    return executor
      .update(jobs)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(
        and(
          eq(jobs.environmentId, environmentId),
          eq(jobs.transactionId, transactionId),
          inArray(jobs.status, ['pending', 'queued', 'delayed']),
        ),
      )
      .returning();
  }

  private digestWhere(environmentId: string, key: DigestKey) {
    return and(
      eq(jobs.environmentId, environmentId),
      eq(jobs.subscriberId, key.subscriberId),
      eq(jobs.workflowId, key.workflowId),
      eq(jobs.type, 'digest'),
      eq(jobs.stepIndex, key.stepIndex),
      sql`${jobs.digest}->>'digestValue' = ${key.digestValue}`,
    );
  }

  /** The open digest window (a digest job waiting) for this key, if any. */
  async findOpenDigest(
    environmentId: string,
    key: DigestKey,
    executor: DbExecutor = this.db,
  ): Promise<JobRow | undefined> {
    const [row] = await executor
      .select()
      .from(jobs)
      .where(and(this.digestWhere(environmentId, key), eq(jobs.status, 'delayed')))
      .orderBy(desc(jobs.createdAt))
      .limit(1);
    return row;
  }

  /** Whether another digest job of this key was created since `since` (backoff: "was there a recent event?"). */
  async hasRecentDigest(
    environmentId: string,
    key: DigestKey,
    exceptJobId: string,
    since: Date,
    executor: DbExecutor = this.db,
  ): Promise<boolean> {
    const rows = await executor
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(this.digestWhere(environmentId, key), ne(jobs.id, exceptJobId), gte(jobs.createdAt, since)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * How many runs of one throttle step this subscriber (and throttle key) was let through since
   * `since`, counted up to `limit`: the other jobs of the step whose result has a passedAt (they
   * may still be running: it is written before their final status).
   */
  async countThrottlePasses(
    environmentId: string,
    key: ThrottleKey,
    exceptJobId: string,
    since: Date,
    limit: number,
    executor: DbExecutor = this.db,
  ): Promise<number> {
    const passed = executor
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.environmentId, environmentId),
          eq(jobs.subscriberId, key.subscriberId),
          eq(jobs.workflowId, key.workflowId),
          eq(jobs.type, 'throttle'),
          ne(jobs.id, exceptJobId),
          sql`${jobs.step}->>'_id' = ${key.stepId}`,
          sql`${jobs.result}->>'throttleKey' = ${key.throttleKey}`,
          sql`(${jobs.result}->>'passedAt')::timestamptz > ${since}`,
        ),
      )
      .limit(limit)
      .as('passed');
    const [row] = await executor.select({ count: sql<number>`count(*)::int` }).from(passed);
    return row?.count ?? 0;
  }

  /**
   * System-wide, for the recovery sweeper. Jobs `queued`, or `delayed` and overdue at `now`, untouched
   * since before `waitingBefore` (their queue entry was probably lost), and jobs `running` without a
   * heartbeat since before `runningBefore` (their worker died; they go back to `queued` so a runner
   * can claim them again, and count one more stall, which bounds a job that kills every worker
   * running it). Touches them so the next sweep waits again.
   */
  async claimStale(
    cutoffs: { waitingBefore: Date; now: Date; runningBefore: Date },
    limit: number,
  ): Promise<Pick<JobRow, 'id' | 'environmentId'>[]> {
    const stale = or(
      and(eq(jobs.status, 'queued'), lt(jobs.updatedAt, cutoffs.waitingBefore)),
      and(eq(jobs.status, 'delayed'), lt(jobs.runAt, cutoffs.now), lt(jobs.updatedAt, cutoffs.waitingBefore)),
      and(eq(jobs.status, 'running'), lt(jobs.updatedAt, cutoffs.runningBefore)),
    );
    const candidates = this.db.select({ id: jobs.id }).from(jobs).where(stale).limit(limit);
    return this.db
      .update(jobs)
      .set({
        updatedAt: new Date(),
        status: sql`CASE WHEN ${jobs.status} = 'running' THEN 'queued' ELSE ${jobs.status} END`,
        stalls: sql`CASE WHEN ${jobs.status} = 'running' THEN ${jobs.stalls} + 1 ELSE ${jobs.stalls} END`,
      })
      .where(and(inArray(jobs.id, candidates), stale))
      .returning({ id: jobs.id, environmentId: jobs.environmentId });
  }
}
