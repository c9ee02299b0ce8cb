import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import type { Logger } from 'pino';
import type { ServerOptions } from 'socket.io';
import type { AppConfig } from '#common';
import { createRealtimePool, createRealtimeRedis, realtimeTransport } from '#realtime';

/**
 * How long a question to every api process (whose sockets are in a room) waits for the answers: a
 * stopping process must finish within its shutdown deadline even when another one does not answer.
 */
export const CLUSTER_REQUEST_TIMEOUT_MS = 2_000;

export interface SocketAdapter {
  /** Undefined on the embedded database: socket.io's in-memory adapter, one process holds every socket. */
  adapter?: ServerOptions['adapter'];
  close(): Promise<void>;
}

/** socket.io's official adapter for the deployment's transport (see realtimeTransport). */
export function createSocketAdapter(config: AppConfig, logger: Logger): SocketAdapter {
  const transport = realtimeTransport(config);
  if (transport.kind === 'redis') {
    const publisher = createRealtimeRedis(transport.redisUrl, logger);
    const subscriber = publisher.duplicate();
    subscriber.on('error', (error: Error) => logger.warn({ err: error }, 'realtime redis subscriber error'));
    return {
      adapter: createRedisAdapter(publisher, subscriber, {
        key: transport.key,
        requestsTimeout: CLUSTER_REQUEST_TIMEOUT_MS,
      }),
      close: async () => {
        await Promise.all([publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())));
      },
    };
  }
  if (transport.kind === 'postgres') {
    const pool = createRealtimePool(transport.databaseUrl, logger, 'adapter');
    return {
      adapter: createPostgresAdapter(pool, {
        errorHandler: (error: Error) => logger.warn({ err: error }, 'realtime postgres adapter error'),
      }),
      close: () => pool.end(),
    };
  }
  return { close: () => Promise.resolve() };
}
