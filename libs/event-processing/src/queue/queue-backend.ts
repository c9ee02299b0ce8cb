import {
  createPostgresBackend,
  createRedisBackend,
  PostgresConnection,
  PostgresQueueBackend,
  runMigrations,
  setDefaultBackendFactory,
  type BackendFactory,
  type PostgresConnectionOptions,
  type WorkerOptions,
} from 'bullmq';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { AppConfig } from '#common';

export const BULLMQ_PG_SCHEMA = 'bullmq';

export interface QueueBackend {
  kind: 'redis' | 'postgres';
  /** What BullMQ's `connection` option receives for this backend. */
  connection: unknown;
  /** Redis key prefix (ignored by the PostgreSQL backend, which is isolated by database). */
  prefix: string;
  /**
   * Set (seconds) when the database never wakes a waiting worker, so workers look for new work at
   * this interval instead: embedded PGlite, whose socket multiplexer cannot deliver LISTEN/NOTIFY to
   * an idle connection.
   */
  pollSeconds?: number;
}

export const EMBEDDED_POLL_SECONDS = 0.2;

/**
 * Jobs added in this process, by queue name. Embedded PGlite runs the api and the worker in one
 * process, so an in-process signal reaches every worker that could take the job.
 */
const jobsAddedHere = new EventEmitter().setMaxListeners(0);

/** The part of BullMQ's PostgreSQL backend that ends the wait in progress (private in its types). */
interface CancellableWait {
  cancelWait?: () => void;
}

/**
 * BullMQ's PostgreSQL backend for a database whose NOTIFY never arrives. A worker with a delayed
 * entry pending (a delay, a digest window, a schedule hold hours away) waits until that entry is
 * due, capped by the backend's maximumBlockTimeout (up to an hour on PostgreSQL), trusting a NOTIFY
 * to wake it for work added meanwhile; here the cap has to be the poll interval. (An empty queue's
 * wait is the worker's drainDelay, which the consumers set to the same interval.)
 *
 * Adds made in this process stand in for the NOTIFY: they end the waits of this process's workers
 * of that queue at once, so a job added by the api is taken without waiting for the next poll.
 * Entries that become ready otherwise (a delayed entry falling due, a retry) are found by the poll.
 */
class PolledPostgresQueueBackend extends PostgresQueueBackend {
  override get maximumBlockTimeout(): number {
    return EMBEDDED_POLL_SECONDS;
  }

  override async addJob(...args: Parameters<PostgresQueueBackend['addJob']>): Promise<string> {
    const id = await super.addJob(...args);
    jobsAddedHere.emit(this.queueName);
    return id;
  }

  override async addJobs(...args: Parameters<PostgresQueueBackend['addJobs']>): Promise<string[]> {
    const ids = await super.addJobs(...args);
    jobsAddedHere.emit(this.queueName);
    return ids;
  }

  override async waitForJob(
    ...args: Parameters<PostgresQueueBackend['waitForJob']>
  ): ReturnType<PostgresQueueBackend['waitForJob']> {
    // BullMQ's worker treats an ended wait like a timeout and looks for a job right away; a job
    // added before the wait began is found by the backend's own check when the wait starts.
    const endWait = (): void => (this as unknown as CancellableWait).cancelWait?.();
    jobsAddedHere.on(this.queueName, endWait);
    try {
      return await super.waitForJob(...args);
    } finally {
      jobsAddedHere.off(this.queueName, endWait);
    }
  }
}

/**
 * BullMQ's createPostgresBackend, building the polled backend (queue-backend.spec.ts fails when
 * BullMQ's own factory starts building its backends differently).
 */
export const createPolledPostgresBackend: BackendFactory<PostgresQueueBackend, PostgresConnectionOptions> = (
  name,
  opts,
  options = {},
) => {
  // The name BullMQ's own factory gives a worker's or QueueEvents' connection (its application_name),
  // by which getWorkers and getQueueEvents find them.
  let listenClientName: string | undefined;
  if (options.withBlockingConnection) {
    const workerName = (opts as WorkerOptions<PostgresConnectionOptions>).name;
    listenClientName = workerName ? `${name}:w:${workerName}` : name;
  } else if (options.blocking) {
    listenClientName = `${name}:qe`;
  }
  return new PolledPostgresQueueBackend(new PostgresConnection(opts.connection), name, opts, true, listenClientName);
};

/**
 * Chooses BullMQ's backend once per process: Redis when REDIS_URL is set, otherwise BullMQ's
 * PostgreSQL backend on the service's own database (its schema migrated here, under BullMQ's lock).
 */
export async function prepareQueueBackend(config: AppConfig, databaseUrl: string): Promise<QueueBackend> {
  if (config.redisUrl) {
    setDefaultBackendFactory(createRedisBackend);
    const url = new URL(config.redisUrl);
    return {
      kind: 'redis',
      prefix: config.queuePrefix,
      connection: {
        host: url.hostname,
        port: Number(url.port || 6379),
        username: url.username || undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
        db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
        tls: url.protocol === 'rediss:' ? {} : undefined,
        // BullMQ workers need blocking commands to wait forever.
        maxRetriesPerRequest: null,
      },
    };
  }
  const embedded = !config.databaseUrl;
  setDefaultBackendFactory((embedded ? createPolledPostgresBackend : createPostgresBackend) as never);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await runMigrations(client, BULLMQ_PG_SCHEMA);
  } finally {
    await client.end();
  }
  return {
    kind: 'postgres',
    prefix: config.queuePrefix,
    connection: { connectionString: databaseUrl, schema: BULLMQ_PG_SCHEMA, max: 10 },
    pollSeconds: embedded ? EMBEDDED_POLL_SECONDS : undefined,
  };
}
