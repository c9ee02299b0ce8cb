import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics. One registry per process; modules record into the metrics
 * below and GET /metrics renders the registry.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export const queueDepth = new Gauge({
  name: 'queue_jobs',
  help: 'Jobs per queue and state, read at scrape time',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'queue_job_duration_seconds',
  help: 'Processing time of finished queue jobs by job name and outcome',
  labelNames: ['name', 'outcome'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
  registers: [metricsRegistry],
});

export const jobFailures = new Counter({
  name: 'queue_job_failures_total',
  help: 'Failed queue job attempts by job name',
  labelNames: ['name'] as const,
  registers: [metricsRegistry],
});

export const deliveries = new Counter({
  name: 'deliveries_total',
  help: 'Messages delivered or attempted, by channel, provider and message status',
  labelNames: ['channel', 'provider', 'status'] as const,
  registers: [metricsRegistry],
});

export const databaseStatements = new Counter({
  name: 'db_statements_total',
  help: 'Statements this process sent to PostgreSQL, each a round trip (BEGIN and COMMIT included)',
  registers: [metricsRegistry],
});

export const eventLoopLagMax = new Gauge({
  name: 'event_loop_lag_max_seconds',
  help: 'Longest event-loop stall of the last 5 s (what /health compares with HEALTH_MAX_EVENT_LOOP_LAG_MS)',
  registers: [metricsRegistry],
});

/**
 * The environments one queue consumer labels separately in the per-environment metrics: the first
 * ones it sees keep their own label, every later one is counted under `other`, so a deployment with
 * many environments cannot grow the scrape without bound.
 */
export class EnvironmentLabels {
  static readonly MAX = 50;
  private readonly labelled = new Set<string>();

  of(environmentId: string): string {
    if (this.labelled.has(environmentId)) return environmentId;
    if (this.labelled.size >= EnvironmentLabels.MAX) return 'other';
    this.labelled.add(environmentId);
    return environmentId;
  }
}

export const queueWait = new Histogram({
  name: 'queue_wait_seconds',
  help: 'Time from a queue job being due (enqueued, or its delay over) to its start, by queue and environment',
  labelNames: ['queue', 'environment'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

export const queueEnvironmentSlots = new Gauge({
  name: 'queue_environment_slots',
  help: "A worker's job slots in use per queue and environment (at most WORKER_ENVIRONMENT_CONCURRENCY each)",
  labelNames: ['queue', 'environment'] as const,
  registers: [metricsRegistry],
});

export const queueLaneJobs = new Gauge({
  name: 'queue_lane_jobs',
  help: "Jobs a worker has taken from the queue that wait in their environment's lane for a slot",
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

/**
 * The maintenance job's record as stored by the worker that ran it: every process (api or worker)
 * reads the same row at scrape time, so each reports the deployment's maintenance (aggregate them
 * with max, not sum).
 */
export interface MaintenanceRecord {
  lastSuccessAt: Date | null;
  lastDurationMs: number | null;
  lastRemoved: Record<string, number>;
  lastPhasesMs: Record<string, number>;
  removedTotal: Record<string, number>;
  runs: Record<'succeeded' | 'failed' | 'skipped' | 'interrupted', number>;
}

const maintenanceLastSuccess = new Gauge({
  name: 'maintenance_last_success_timestamp_seconds',
  help: 'When the last maintenance run that completed ended (Unix time; 0: none yet)',
  registers: [metricsRegistry],
});

const maintenanceLastDuration = new Gauge({
  name: 'maintenance_last_run_duration_seconds',
  help: 'How long the last completed maintenance run took',
  registers: [metricsRegistry],
});

const maintenanceLastPhase = new Gauge({
  name: 'maintenance_last_run_phase_duration_seconds',
  help: 'How long each phase of the last completed maintenance run took: partition_create, partition_drop, the walk of each table, idempotency_keys',
  labelNames: ['phase'] as const,
  registers: [metricsRegistry],
});

const maintenanceLastRemoved = new Gauge({
  name: 'maintenance_last_run_rows_removed',
  help: 'Rows the last completed maintenance run removed, by table',
  labelNames: ['table'] as const,
  registers: [metricsRegistry],
});

const maintenanceRemoved = new Counter({
  name: 'maintenance_rows_removed_total',
  help: 'Rows removed by every maintenance run (those that failed or stopped included), by table',
  labelNames: ['table'] as const,
  registers: [metricsRegistry],
});

const maintenanceLastPartitions = new Gauge({
  name: 'maintenance_last_run_partitions_dropped',
  help: 'Week partitions the last completed maintenance run dropped, by table',
  labelNames: ['table'] as const,
  registers: [metricsRegistry],
});

const maintenancePartitions = new Counter({
  name: 'maintenance_partitions_dropped_total',
  help: 'Week partitions dropped by every maintenance run, by table',
  labelNames: ['table'] as const,
  registers: [metricsRegistry],
});

/**
 * What a run removed is stored as one map: rows by table, and dropped partitions by table under
 * this prefix (`partitions:messages`).
 */
export const DROPPED_PARTITIONS_PREFIX = 'partitions:';

/** A run's removed map as two: rows by table, dropped partitions by table. */
function splitRemoved(removed: Record<string, number>) {
  const rows: [string, number][] = [];
  const partitions: [string, number][] = [];
  for (const [key, count] of Object.entries(removed)) {
    if (key.startsWith(DROPPED_PARTITIONS_PREFIX))
      partitions.push([key.slice(DROPPED_PARTITIONS_PREFIX.length), count]);
    else rows.push([key, count]);
  }
  return { rows, partitions };
}

const maintenanceRuns = new Counter({
  name: 'maintenance_runs_total',
  help: 'Maintenance runs by outcome: succeeded, failed (retried by the queue), skipped (another run held the lock), interrupted (shutdown)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** Sets the maintenance metrics to the stored record (counters included: the record holds the totals). */
export function showMaintenance(record: MaintenanceRecord): void {
  maintenanceLastSuccess.set(record.lastSuccessAt ? record.lastSuccessAt.getTime() / 1000 : 0);
  maintenanceLastDuration.set((record.lastDurationMs ?? 0) / 1000);
  maintenanceLastPhase.reset();
  for (const [phase, ms] of Object.entries(record.lastPhasesMs)) maintenanceLastPhase.set({ phase }, ms / 1000);
  const last = splitRemoved(record.lastRemoved);
  const total = splitRemoved(record.removedTotal);
  for (const [gauge, counts] of [
    [maintenanceLastRemoved, last.rows],
    [maintenanceLastPartitions, last.partitions],
  ] as const) {
    gauge.reset();
    for (const [table, count] of counts) gauge.set({ table }, count);
  }
  for (const [counter, counts] of [
    [maintenanceRemoved, total.rows],
    [maintenancePartitions, total.partitions],
  ] as const) {
    counter.reset();
    for (const [table, count] of counts) counter.inc({ table }, count);
  }
  maintenanceRuns.reset();
  for (const [outcome, runs] of Object.entries(record.runs)) maintenanceRuns.inc({ outcome }, runs);
}

export const webhookAttempts = new Counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt due), failed (no attempt left), disabled (the endpoint was turned off)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or the 15 s cut-off)',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  registers: [metricsRegistry],
});

export const webhookEndpointsDisabled = new Counter({
  name: 'webhook_endpoints_disabled_total',
  help: 'Endpoints the service turned off, by reason: gone (HTTP 410), failing (5 days without a success)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
