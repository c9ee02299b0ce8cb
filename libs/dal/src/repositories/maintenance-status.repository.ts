import { Inject, Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { maintenanceStatus, type MaintenanceStatusRow, type RemovedRows } from '../schema/index.js';

/** How a run ended; each has its counter column. */
export type MaintenanceOutcome = 'succeeded' | 'failed' | 'skipped' | 'interrupted';

export interface MaintenanceRunRecord {
  outcome: MaintenanceOutcome;
  finishedAt: Date;
  /** Rows removed, committed even when the run failed or stopped halfway. */
  removed: RemovedRows;
  durationMs: number;
  /** Milliseconds by phase of the run. */
  phasesMs: Record<string, number>;
  error?: string;
}

/**
 * The maintenance job's record (not tenant data: one row per job name). Each run is recorded by one
 * statement that adds to the counters, so runs ending together on several workers never lose one.
 */
@Injectable()
export class MaintenanceStatusRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(name: string): Promise<MaintenanceStatusRow | undefined> {
    const [row] = await this.db.select().from(maintenanceStatus).where(eq(maintenanceStatus.name, name)).limit(1);
    return row;
  }

  /** The last success's time, duration and rows; the last failure's time and error; the totals. */
  async record(name: string, run: MaintenanceRunRecord): Promise<void> {
    const counter = sql.identifier(run.outcome);
    const succeeded = run.outcome === 'succeeded';
    const failed = run.outcome === 'failed';
    const removed = JSON.stringify(run.removed);
    const phases = JSON.stringify(succeeded ? run.phasesMs : {});
    await this.db.execute(sql`
      INSERT INTO maintenance_status AS s
        (name, ${counter}, removed_total, last_success_at, last_duration_ms, last_removed, last_phases_ms, last_failure_at,
        last_error, updated_at)
      VALUES (${name}, 1, ${removed}::jsonb, ${succeeded ? run.finishedAt : null}, ${succeeded ? run.durationMs : null},
        ${succeeded ? removed : '{}'}::jsonb, ${phases}::jsonb, ${failed ? run.finishedAt : null}, ${failed ? (run.error ?? '') : null},
        ${run.finishedAt})
      ON CONFLICT (name) DO UPDATE SET
        ${counter} = s.${counter} + 1,
        removed_total = (
          SELECT COALESCE(jsonb_object_agg(entry.key, entry.total), '{}'::jsonb) FROM (
            SELECT key, sum(value::bigint) AS total
            FROM (SELECT * FROM jsonb_each_text(s.removed_total) UNION ALL SELECT * FROM jsonb_each_text(EXCLUDED.removed_total)) AS counts
            GROUP BY key
          ) AS entry),
        last_success_at = COALESCE(EXCLUDED.last_success_at, s.last_success_at),
        last_duration_ms = CASE WHEN EXCLUDED.last_success_at IS NULL THEN s.last_duration_ms ELSE EXCLUDED.last_duration_ms END,
        last_removed = CASE WHEN EXCLUDED.last_success_at IS NULL THEN s.last_removed ELSE EXCLUDED.last_removed END,
        last_phases_ms = CASE WHEN EXCLUDED.last_success_at IS NULL THEN s.last_phases_ms ELSE EXCLUDED.last_phases_ms END,
        last_failure_at = COALESCE(EXCLUDED.last_failure_at, s.last_failure_at),
        last_error = COALESCE(EXCLUDED.last_error, s.last_error),
        updated_at = EXCLUDED.updated_at`);
  }
}
