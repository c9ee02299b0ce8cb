import { sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { jsonb, timestamps, tz } from './columns.js';

/** Rows removed by table name (notifications, jobs, messages, idempotency_keys...). */
export type RemovedRows = Record<string, number>;

/**
 * What the maintenance job did, one row per job name, written by the worker that ran it and read by
 * every process's /metrics: an api process reports the deployment's maintenance, not its own.
 */
export const maintenanceStatus = pgTable('maintenance_status', {
  name: text('name').primaryKey(),
  lastSuccessAt: tz('last_success_at'),
  lastDurationMs: integer('last_duration_ms'),
  /** Rows the last successful run removed, by table. */
  lastRemoved: jsonb('last_removed')
    .$type<RemovedRows>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  /**
   * How long each phase of the last successful run took, in milliseconds: partition_create,
   * partition_drop, one walk per table (notifications, trigger_events, messages, webhook_events),
   * idempotency_keys.
   */
  lastPhasesMs: jsonb('last_phases_ms')
    .$type<Record<string, number>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  /** Rows removed by every run so far, by table. */
  removedTotal: jsonb('removed_total')
    .$type<RemovedRows>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  succeeded: integer('succeeded').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  /** Runs that found another run holding the lock and did nothing. */
  skipped: integer('skipped').notNull().default(0),
  /** Runs stopped between two batches by their worker's shutdown; the next run goes on. */
  interrupted: integer('interrupted').notNull().default(0),
  lastFailureAt: tz('last_failure_at'),
  lastError: text('last_error'),
  ...timestamps(),
});

export type MaintenanceStatusRow = typeof maintenanceStatus.$inferSelect;
