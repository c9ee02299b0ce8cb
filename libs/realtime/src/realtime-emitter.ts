import { Emitter as RedisEmitter } from '@socket.io/redis-emitter';
import type { Logger } from 'pino';
import { ROOM_EVENTS, type RoomBroadcaster } from '#application';
import type { AppConfig } from '#common';
import { PostgresRoomEmitter } from './postgres-room-emitter.js';
import { createRealtimePool, createRealtimeRedis, realtimeTransport } from './realtime-transport.js';

export interface RealtimeEmitter {
  broadcaster: RoomBroadcaster;
  close(): Promise<void>;
}

/**
 * An emitter for the deployment's transport: it publishes what an api process's adapter would,
 * without a socket server (socket.io's Redis emitter; our own for PostgreSQL, see PostgresRoomEmitter).
 * Undefined on the embedded database, where no worker runs apart.
 */
export function createRealtimeEmitter(config: AppConfig, logger: Logger): RealtimeEmitter | undefined {
  const transport = realtimeTransport(config);
  if (transport.kind === 'redis') {
    const redis = createRealtimeRedis(transport.redisUrl, logger);
    const emitter = new RedisEmitter(redis, { key: transport.key });
    return {
      broadcaster: { broadcast: (events) => emitter.serverSideEmit(ROOM_EVENTS, events) },
      close: async () => void (await redis.quit().catch(() => redis.disconnect())),
    };
  }
  if (transport.kind === 'postgres') {
    const pool = createRealtimePool(transport.databaseUrl, logger, 'emitter');
    return {
      broadcaster: new PostgresRoomEmitter(pool, logger),
      close: () => pool.end(),
    };
  }
  return undefined;
}
