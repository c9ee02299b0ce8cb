import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresBackend, createRedisBackend, withBackend } from 'bullmq';
import pg from 'pg';
import { startAutovacuum, vacuumRecord, type AutovacuumRecord } from './autovacuum.js';
import type { BenchOptions } from './options.js';
import { startCpuWindow, type CpuUsage } from './cpu-usage.js';
import { apiClient, developmentScope, recreateDatabase, type ApiClient, type Scope } from './database.js';
import { freePort, memory, ROOT, startProcess, waitForHttp, type RunningProcess } from './processes.js';

const API_KEY = 'bench-api-key-0123456789abcdef';
const ENCRYPTION_KEY = '6265e5c8a0c1f1a7d7b1e4f0c3a2b9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2';
/** The service's queues (libs/event-processing job catalogue): fan-out, then step jobs. */
const FAN_OUT_QUEUE = 'trigger-events';
const STEP_QUEUE = 'step-jobs';
const SYSTEM_QUEUE = 'system';
const PG_QUEUE_SCHEMA = 'bullmq';

export interface Deployment {
  label: string;
  /** Deviations from the intended deployment, reported with the results. */
  notes: string[];
  queueKind: 'redis' | 'postgres';
  queuePrefix: string;
  databaseUrl: string;
  /** The services' environment, for running the service's CLI against the same database. */
  env: Record<string, string>;
  api: RunningProcess;
  worker: RunningProcess;
  pool: pg.Pool;
  scope: Scope;
  client: ApiClient;
  /** Holds fan-out jobs (the api keeps enqueueing) so accept load is measured without worker work. */
  pauseFanOut(): Promise<void>;
  /** Drops the held fan-out jobs and resumes the queue. */
  discardFanOutAndResume(): Promise<void>;
  /** Queues one maintenance run (the job the worker's scheduler adds every interval). */
  queueMaintenance(): Promise<void>;
  /** Drops every queued fan-out and step job, so an unfinished scenario does not slow the next. */
  discardBacklog(): Promise<void>;
  assertAlive(): void;
  peakRss(): { apiBytes?: number; workerBytes?: number };
  resetPeakRss(): boolean;
  /** Starts measuring where the machine's CPU goes (api, worker, PostgreSQL, Redis, the bench itself). */
  cpuWindow(): { stop(): CpuUsage };
  /** What the bench's autovacuum did on this deployment so far. */
  vacuumed: AutovacuumRecord;
  stop(): Promise<void>;
}

/** The node flags of `npm start` (package.json), so the service runs with the heap settings it is deployed with. */
function startScriptNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const start = scripts.start;
  return start.split(/\s+/).filter((token) => token.startsWith('--'));
}

/**
 * A fresh database, then the api and the worker as separate processes from dist, as deployed.
 * The sweeper's grace is set beyond the run so it never re-enqueues the discarded accept backlog.
 */
export async function deploy(
  options: BenchOptions,
  label: string,
  database: string,
  redis: boolean,
): Promise<Deployment> {
  const databaseUrl = await recreateDatabase(options.adminUrl, database);
  const queuePrefix = `bench-${Date.now().toString(36)}-${label}`;
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY,
    API_KEY,
    QUEUE_PREFIX: queuePrefix,
    RECOVERY_GRACE_SECONDS: '86400',
    // The service's defaults otherwise (info logging, rate limits), as users run it; except the inbox
    // limits per client address and per subscriber: every simulated browser of the inbox part connects
    // from this one address, which the defaults (built for one person's browser) would throttle.
    RATE_LIMIT_INBOX_PER_SECOND: '100000',
    RATE_LIMIT_INBOX_BURST: '200000',
    RATE_LIMIT_INBOX_SESSION_PER_SECOND: '100000',
    RATE_LIMIT_INBOX_SESSION_BURST: '200000',
    // The bench's webhook receivers listen on loopback, which the service refuses by default.
    ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    ...(redis ? { REDIS_URL: options.redisUrl } : {}),
    ...options.serviceEnv,
  };
  const profileArgs = (role: string) =>
    options.cpuProf
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${join(ROOT, 'bench', 'profiles')}`,
          `--cpu-prof-name=${label}-${role}-${Date.now()}.cpuprofile`,
        ]
      : [];
  const nodeArgs = (role: string) => [...startScriptNodeArgs(), ...profileArgs(role)];

  const started: RunningProcess[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  try {
    const api = startProcess(
      `${label} api`,
      'dist/apps/api/src/main.js',
      { ...env, ROLE: 'api' },
      await freePort(),
      nodeArgs('api'),
    );
    started.push(api);
    await waitForHttp(api, '/health');
    // After the api migrated the database, so the worker boots on a ready schema.
    const worker = startProcess(
      `${label} worker`,
      'dist/apps/worker/src/main.js',
      { ...env, ROLE: 'worker' },
      await freePort(),
      nodeArgs('worker'),
    );
    started.push(worker);
    await waitForHttp(worker, '/health');
    const notes: string[] = [];

    const scope = await developmentScope(pool);
    const openQueue = (name: string) => {
      if (redis) {
        const url = new URL(options.redisUrl);
        const { Queue } = withBackend(createRedisBackend);
        return new Queue(name, {
          connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null },
          prefix: queuePrefix,
        });
      }
      const { Queue } = withBackend(createPostgresBackend);
      return new Queue(name, { connection: { connectionString: databaseUrl, schema: PG_QUEUE_SCHEMA, max: 2 } });
    };
    const fanOut = openQueue(FAN_OUT_QUEUE);
    const steps = openQueue(STEP_QUEUE);
    const system = openQueue(SYSTEM_QUEUE);
    const processes = [api, worker];
    const autovacuum = startAutovacuum(pool);
    return {
      label,
      notes,
      queueKind: redis ? 'redis' : 'postgres',
      queuePrefix,
      databaseUrl,
      env,
      api,
      worker,
      pool,
      scope,
      client: apiClient(api.port, API_KEY),
      pauseFanOut: () => fanOut.pause(),
      queueMaintenance: async () => {
        await system.add('maintenance', {});
      },
      async discardFanOutAndResume() {
        await fanOut.obliterate({ force: true });
        await fanOut.resume();
      },
      async discardBacklog() {
        for (const queue of [fanOut, steps]) {
          await queue.pause();
          await queue.obliterate({ force: true });
          await queue.resume();
        }
      },
      assertAlive() {
        for (const proc of processes) {
          if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
            throw new Error(
              `${proc.name} died (${proc.child.exitCode ?? proc.child.signalCode}):\n${proc.output().slice(-4000)}`,
            );
          }
        }
      },
      peakRss: () => ({ apiBytes: memory.peakBytes(api), workerBytes: memory.peakBytes(worker) }),
      resetPeakRss: () => memory.resetPeak(api) && memory.resetPeak(worker),
      cpuWindow: () => startCpuWindow({ api: api.child.pid, worker: worker.child.pid }),
      vacuumed: vacuumRecord(pool),
      async stop() {
        await autovacuum.stop();
        await Promise.all([fanOut, steps, system].map((queue) => queue.close().catch(() => undefined)));
        await Promise.all(processes.map((proc) => proc.stop()));
        await pool.end();
      },
    };
  } catch (error) {
    await Promise.all(started.map((proc) => proc.stop()));
    await pool.end();
    throw error;
  }
}
