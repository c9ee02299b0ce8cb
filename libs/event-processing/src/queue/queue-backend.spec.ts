import { describe, expect, it } from '@jest/globals';
import { createPostgresBackend, PostgresQueueBackend, Worker } from 'bullmq';
import { createPolledPostgresBackend, EMBEDDED_POLL_SECONDS } from './queue-backend.js';

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
