import { createPostgresBackend, createRedisBackend, runMigrations, setDefaultBackendFactory } from 'bullmq';
import pg from 'pg';
import type { AppConfig } from '#common';

export const BULLMQ_PG_SCHEMA = 'bullmq';

export interface QueueBackend {
  kind: 'redis' | 'postgres';
  /** What BullMQ's `connection` option receives for this backend. */
  connection: unknown;
  /** Redis key prefix (ignored by the PostgreSQL backend, which is isolated by database). */
  prefix: string;
}

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
  setDefaultBackendFactory(createPostgresBackend as never);
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
  };
}
