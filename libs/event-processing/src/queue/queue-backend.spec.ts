import { describe, expect, it } from '@jest/globals';
import { createPostgresBackend, PostgresQueueBackend, Queue, runMigrations, Worker } from 'bullmq';
import pg from 'pg';
import { EmbeddedPostgres } from '#dal';
import { BULLMQ_PG_SCHEMA, createPolledPostgresBackend, EMBEDDED_POLL_SECONDS } from './queue-backend.js';

// Nothing listens there: these backends are built and compared, never connected.
const connection = { connectionString: 'postgres://nobody@127.0.0.1:1/none', schema: 'bullmq' };

/** A backend's own state, its connection reduced to what configures it. */
function configuration(backend: PostgresQueueBackend) {
  const { connection: own, ...rest } = backend as unknown as Record<string, unknown> & {
    connection: Record<string, unknown> & { pool: { options: unknown } };
  };
  const { pool, ...connectionRest } = own;
  return {
    ...rest,
    connection: {
      type: own.constructor,
      poolOptions: pool.options,
      ...Object.fromEntries(Object.entries(connectionRest).filter(([, value]) => typeof value !== 'object')),
    },
  };
}

describe('polled PostgreSQL backend (embedded database)', () => {
  it("caps a worker's wait for a delayed entry at the poll interval", async () => {
    const worker = new Worker(
      'polled',
      () => Promise.resolve(),
      { connection, autorun: false },
      createPolledPostgresBackend,
    );
    worker.on('error', () => undefined);
    try {
      expect(worker.maximumBlockTimeout).toBe(EMBEDDED_POLL_SECONDS);
    } finally {
      await worker.close();
    }
  });

  it("is otherwise what BullMQ's createPostgresBackend builds, for workers, queue events and queues", async () => {
    const cases = [
      { options: { withBlockingConnection: true }, opts: { connection } },
      { options: { withBlockingConnection: true }, opts: { connection, name: 'worker-1' } },
      { options: { blocking: true }, opts: { connection } },
      { options: {}, opts: { connection } },
    ];
    for (const { options, opts } of cases) {
      const polled = createPolledPostgresBackend('jobs', opts, options);
      const plain = createPostgresBackend('jobs', opts, options);
      try {
        expect(polled).toBeInstanceOf(PostgresQueueBackend);
        expect(configuration(polled)).toEqual(configuration(plain));
      } finally {
        await polled.close();
        await plain.close();
      }
    }
  });
});

describe('polled PostgreSQL backend on the embedded database', () => {
  it('wakes an idle worker of this process as soon as a job is added, without waiting for its poll', async () => {
    const database = await EmbeddedPostgres.start();
    const client = new pg.Client({ connectionString: database.connectionString });
    await client.connect();
    await runMigrations(client, BULLMQ_PG_SCHEMA);
    await client.end();
    const embedded = { connectionString: database.connectionString, schema: BULLMQ_PG_SCHEMA };
    let processedAt = 0;
    // An idle worker waits drainDelay seconds for the next job: long here, so only a wake-up explains a quick pickup.
    const worker = new Worker(
      'wake',
      () => {
        processedAt = Date.now();
        return Promise.resolve();
      },
      { connection: embedded, drainDelay: 20 },
      createPolledPostgresBackend,
    );
    const queue = new Queue('wake', { connection: embedded }, createPolledPostgresBackend);
    const drained = new Promise<void>((resolve) => worker.once('drained', () => resolve()));
    try {
      await worker.waitUntilReady();
      await drained;
      await new Promise((resolve) => setTimeout(resolve, 300)); // the worker is now inside its 20 s wait
      const addedAt = Date.now();
      await queue.add('job', {});
      const deadline = addedAt + 10_000;
      while (!processedAt && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(processedAt).toBeGreaterThan(0);
      expect(processedAt - addedAt).toBeLessThan(2_000);
    } finally {
      await worker.close();
      await queue.close();
      await database.stop();
    }
  }, 30_000);
});
