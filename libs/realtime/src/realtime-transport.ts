import { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '#common';

/**
 * How the processes of one deployment reach each other's sockets, chosen like the queue backend:
 * Redis pub/sub when REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on the service's database otherwise,
 * and nothing on the embedded database (one process, ROLE=all, holds every socket).
 */
export type RealtimeTransport =
  { kind: 'redis'; redisUrl: string; key: string } | { kind: 'postgres'; databaseUrl: string } | { kind: 'local' };

export function realtimeTransport(config: AppConfig): RealtimeTransport {
  // The queue prefix separates deployments (and test runs) that share one Redis.
  if (config.redisUrl) return { kind: 'redis', redisUrl: config.redisUrl, key: `${config.queuePrefix}:socket.io` };
  if (config.databaseUrl) return { kind: 'postgres', databaseUrl: config.databaseUrl };
  return { kind: 'local' };
}

interface PendingPublish {
  channel: string;
  message: string | Buffer;
  published: (receivers: number) => void;
}

/**
 * A Redis client whose publishes go out in batches and never reject. Batches: the publishes of one
 * tick go in one pipeline, one socket write, in order (a delivered batch emits three events per
 * subscriber, which would otherwise cost a write each). Never reject: socket.io's Redis adapter and
 * emitter publish without handling the promise, and an unreachable Redis would otherwise end the
 * process with an unhandled rejection. A lost realtime event is logged; the inbox catches up on its
 * next fetch.
 */
export function createRealtimeRedis(redisUrl: string, logger: Logger): Redis {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
  client.on('error', (error: Error) => logger.warn({ err: error }, 'realtime redis connection error'));
  let pending: PendingPublish[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    const pipeline = client.pipeline();
    for (const { channel, message } of batch) pipeline.publish(channel, message);
    pipeline.exec().then(
      (results) => {
        const failed = results?.find(([error]) => error)?.[0];
        if (failed) logger.warn({ err: failed }, 'realtime events not published to redis');
        batch.forEach(({ published }, index) => published(Number(results?.[index]?.[1] ?? 0)));
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'realtime events not published to redis');
        for (const { published } of batch) published(0);
      },
    );
  };
  Object.assign(client, {
    publish: (channel: string, message: string | Buffer) =>
      new Promise<number>((published) => {
        if (pending.length === 0) process.nextTick(flush);
        pending.push({ channel, message, published });
      }),
  });
  return client;
}

/**
 * A small pool for the socket.io PostgreSQL adapter or emitter, apart from the application's pool so
 * that the adapter's long-lived LISTEN connection never takes a slot a query waits for. Publishing
 * uses exactly one connection (`max` counts the adapter's LISTEN connection too): NOTIFYs sent over
 * several connections can overtake each other, and a subscriber's events must arrive in the order
 * they were emitted (its unseen count before its unread count, a message before its counts).
 */
export function createRealtimePool(databaseUrl: string, logger: Logger, role: 'adapter' | 'emitter'): pg.Pool {
  const max = role === 'adapter' ? 2 : 1;
  const pool = new pg.Pool({ connectionString: databaseUrl, max, application_name: 'realtime' });
  pool.on('error', (error) => logger.warn({ err: error }, 'realtime database connection error'));
  if (role === 'adapter') releaseDroppedListenClients(pool, logger);
  return pool;
}

/**
 * The adapter checks its LISTEN client out of the pool for good and, when the connection drops (a
 * database restart), takes a new one without releasing the dead one. The pool watches only idle
 * clients, so the drop would be an uncaught error that ends the process, and the dead client would
 * keep its slot: publishing would wait forever and shutdown would hang. Clients checked out by
 * `connect()` without a callback (the adapter's; `pool.query` passes one) get an error listener and
 * are handed back to the pool, destroyed, when they end. The adapter's own release on close removes
 * the `end` listeners first.
 */
function releaseDroppedListenClients(pool: pg.Pool, logger: Logger): void {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: unknown) => {
    if (callback) return connect(callback);
    return connect()!.then((client) => {
      client.on('error', (error) => logger.warn({ err: error }, 'realtime database connection lost'));
      client.once('end', () => client.release(new Error('realtime LISTEN connection ended')));
      return client;
    });
  }) as typeof pool.connect;
}
