import { encode } from '@msgpack/msgpack';
import type pg from 'pg';
import type { Logger } from 'pino';
import { getTableName } from 'drizzle-orm';
import { socketIoAttachments } from '#dal';

/** socket.io's cluster protocol: the adapter's BROADCAST message type and the parser's EVENT packet. */
const BROADCAST = 3;
const EVENT_PACKET = 2;
/** An emitter's messages carry this uid; the adapter does not count it as a server. */
const EMITTER_UID = 'emitter';
const NAMESPACE = '/';
const CHANNEL = `socket.io#${NAMESPACE}`;
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; larger messages travel as an attachment row. */
const NOTIFY_LIMIT_BYTES = 7900;

/**
 * Emits to a room of every api process through socket.io's PostgreSQL adapter, in the message
 * format that adapter reads. socket.io's own postgres-emitter (0.1.x) omits the message's namespace,
 * which the adapter's cluster protocol requires, so its broadcasts are silently dropped. A failed
 * publish is logged, never thrown: a lost event costs a stale badge, not a delivery.
 */
export class PostgresRoomEmitter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  to(room: string): { emit(event: string, payload: unknown): void } {
    return {
      emit: (event, payload) => {
        this.publish(room, event, payload).catch((error: unknown) =>
          this.logger.warn({ err: error, event }, 'realtime event not published to postgres'),
        );
      },
    };
  }

  private async publish(room: string, event: string, payload: unknown): Promise<void> {
    const message = {
      uid: EMITTER_UID,
      nsp: NAMESPACE,
      type: BROADCAST,
      data: {
        packet: { type: EVENT_PACKET, nsp: NAMESPACE, data: [event, payload] },
        opts: { rooms: [room], except: [], flags: {} },
      },
    };
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) < NOTIFY_LIMIT_BYTES) {
      await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, text]);
      return;
    }
    const { rows } = await this.pool.query<{ id: string }>(
      `INSERT INTO ${getTableName(socketIoAttachments)} (payload) VALUES ($1) RETURNING id`,
      [Buffer.from(encode(message))],
    );
    const header = { uid: EMITTER_UID, nsp: NAMESPACE, type: BROADCAST, attachmentId: rows[0].id };
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(header)]);
  }
}
