import { randomUUID } from 'node:crypto';
import { createPostgresBackend, createRedisBackend, runMigrations, withBackend, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { load, type LoadResult } from './load.js';
import { freePort, sleep, startProcess, waitForHttp } from './processes.js';

/** The trigger event of the load runs, to bench-sub-n. */
export function triggerEvent(n: number) {
  return {
    name: 'bench-accept',
    to: `bench-sub-${n}`,
    payload: { orderId: `order-${n}`, amount: 42, items: ['a', 'b'] },
  };
}

/** Same body as the trigger-accept scenario, so both measure the same bytes on the wire. */
export function triggerBody(n: number): string {
  return JSON.stringify(triggerEvent(n));
}

export async function bareFastify(connections: number, duration: number): Promise<LoadResult> {
  const port = await freePort();
  const proc = startProcess('bare-fastify', 'dist/bench/bare-fastify.js', {}, port);
  try {
    await waitForHttp(proc, '/health', 15_000);
    return await load({
      url: `http://127.0.0.1:${port}/v1/events/trigger`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: triggerBody(1),
      connections,
      duration,
    });
  } finally {
    await proc.stop();
  }
}

/** Bare Fastify answering a canned inbox page: the ceiling of the inbox list load (same connections and time). */
export async function bareFastifyInboxList(options: {
  connections: number;
  duration: number;
  warmUp: number;
  runs: number;
}): Promise<LoadResult> {
  const port = await freePort();
  const proc = startProcess('bare-fastify', 'dist/bench/bare-fastify.js', {}, port);
  try {
    await waitForHttp(proc, '/health', 15_000);
    return await load({
      url: `http://127.0.0.1:${port}/v1/inbox/notifications?limit=10`,
      headers: { authorization: 'Bearer bench' },
      connections: options.connections,
      duration: options.duration,
      warmUpSeconds: options.warmUp,
      runs: options.runs,
    });
  } finally {
    await proc.stop();
  }
}

export interface QueueCeiling {
  backend: 'redis' | 'postgres';
  jobs: number;
  addJobsPerSecond: number;
  drainJobsPerSecond: number;
  /** jobs / (add seconds + drain seconds). */
  jobsPerSecond: number;
  drained: boolean;
}

const CEILING_CHUNK = 1_000;
const WORKER_CONCURRENCY = 50;

export type QueueBackendChoice =
  { kind: 'redis'; url: string; prefix: string } | { kind: 'postgres'; databaseUrl: string; schema: string };

interface CeilingQueue {
  addBulk(jobs: { name: string; data: unknown; opts?: JobsOptions }[]): Promise<unknown>;
  obliterate(opts: { force: boolean }): Promise<void>;
  close(): Promise<void>;
}
interface CeilingWorker {
  on(event: 'completed', listener: () => void): unknown;
  close(): Promise<void>;
}

/** A queue and a worker factory on the chosen backend, without touching BullMQ's process-wide default. */
async function openBackend(
  choice: QueueBackendChoice,
  name: string,
): Promise<{ queue: CeilingQueue; worker: (concurrency: number) => CeilingWorker }> {
  const processor = () => Promise.resolve(undefined);
  if (choice.kind === 'redis') {
    const { Queue, Worker } = withBackend(createRedisBackend);
    const parsed = new URL(choice.url);
    const connection = { host: parsed.hostname, port: Number(parsed.port || 6379), maxRetriesPerRequest: null };
    return {
      queue: new Queue(name, { connection, prefix: choice.prefix }),
      worker: (concurrency) => new Worker(name, processor, { connection, prefix: choice.prefix, concurrency }),
    };
  }
  const client = new pg.Client({ connectionString: choice.databaseUrl });
  await client.connect();
  try {
    await runMigrations(client, choice.schema);
  } finally {
    await client.end();
  }
  const { Queue, Worker } = withBackend(createPostgresBackend);
  const connection = { connectionString: choice.databaseUrl, schema: choice.schema, max: 10 };
  return {
    queue: new Queue(name, { connection }),
    worker: (concurrency) => new Worker(name, processor, { connection, concurrency }),
  };
}

/**
 * Raw BullMQ with the service's job options and a no-op processor: addBulk of `jobs` jobs in
 * chunks, then one worker (the service's default concurrency) drains them.
 */
export async function bullmqCeiling(
  choice: QueueBackendChoice,
  jobs: number,
  timeoutMs: number,
): Promise<QueueCeiling> {
  const name = `ceiling-${randomUUID().slice(0, 8)}`;
  const { queue, worker: startWorker } = await openBackend(choice, name);
  const opts: JobsOptions = {
    attempts: 5,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { count: 1_000 },
    removeOnFail: { count: 10_000 },
  };
  let worker: CeilingWorker | undefined;
  try {
    const addStart = performance.now();
    for (let from = 0; from < jobs; from += CEILING_CHUNK) {
      const size = Math.min(CEILING_CHUNK, jobs - from);
      await queue.addBulk(
        Array.from({ length: size }, () => ({
          name: 'run-step',
          data: { jobId: randomUUID(), environmentId: randomUUID() },
          opts,
        })),
      );
    }
    const addSeconds = (performance.now() - addStart) / 1000;

    let done = 0;
    const drainStart = performance.now();
    worker = startWorker(WORKER_CONCURRENCY);
    worker.on('completed', () => done++);
    const deadline = Date.now() + timeoutMs;
    while (done < jobs && Date.now() < deadline) await sleep(20);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    return {
      backend: choice.kind,
      jobs,
      addJobsPerSecond: jobs / addSeconds,
      drainJobsPerSecond: done / drainSeconds,
      jobsPerSecond: done / (addSeconds + drainSeconds),
      drained: done >= jobs,
    };
  } finally {
    await worker?.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}

/** Deletes every Redis key under the prefix (SCAN, so Redis is never blocked). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export interface InsertCeiling {
  rows: number;
  rowsPerSecond: number;
  rowsPerStatement: number;
  clients: number;
}

const INSERT_ROWS_PER_STATEMENT = 500;
const INSERT_CLIENTS = 4;

/**
 * PostgreSQL multi-row INSERT into a copy of `messages` with all its indexes (what fan-out writes
 * most), parameterised like the service's batch inserts, from a few connections at once.
 */
export async function postgresInsertCeiling(databaseUrl: string, rows: number): Promise<InsertCeiling> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: INSERT_CLIENTS });
  const table = 'bench_ceiling_messages';
  try {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.query(`CREATE TABLE ${table} (LIKE messages INCLUDING ALL)`);
    const columns = [
      'id',
      'environment_id',
      'organization_id',
      'notification_id',
      'job_id',
      'subscriber_id',
      'workflow_id',
      'transaction_id',
      'channel',
      'content',
    ];
    const environmentId = randomUUID();
    const organizationId = randomUUID();
    const statements = Math.ceil(rows / INSERT_ROWS_PER_STATEMENT);
    let next = 0;
    const insertOne = async (size: number) => {
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let i = 0; i < size; i++) {
        const base = values.length;
        tuples.push(`(${columns.map((_, c) => `$${base + c + 1}`).join(',')})`);
        const transactionId = randomUUID();
        values.push(
          randomUUID(),
          environmentId,
          organizationId,
          randomUUID(),
          randomUUID(),
          randomUUID(),
          randomUUID(),
          transactionId,
          'in_app',
          JSON.stringify('Hello Bench, order order-1 is on its way'),
        );
      }
      await pool.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')}`, values);
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: INSERT_CLIENTS }, async () => {
        while (next < statements) {
          const index = next++;
          await insertOne(Math.min(INSERT_ROWS_PER_STATEMENT, rows - index * INSERT_ROWS_PER_STATEMENT));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      rows,
      rowsPerSecond: rows / seconds,
      rowsPerStatement: INSERT_ROWS_PER_STATEMENT,
      clients: INSERT_CLIENTS,
    };
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await pool.end();
  }
}
