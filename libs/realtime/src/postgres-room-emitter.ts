import { encode } from '@msgpack/msgpack';
import type pg from 'pg';
import type { Logger } from 'pino';
import { getTableName } from 'drizzle-orm';
import { ROOM_EVENTS, type RoomBroadcaster, type RoomEvent } from '#application';
import { socketIoAttachments } from '#dal';

/** socket.io's cluster protocol: the adapter's SERVER_SIDE_EMIT message type. */
const SERVER_SIDE_EMIT = 9;
/** An emitter's messages carry this uid; the adapter does not count it as a server. */
const EMITTER_UID = 'emitter';
const NAMESPACE = '/';
const CHANNEL = `socket.io#${NAMESPACE}`;
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; larger messages travel as an attachment row. */
const NOTIFY_LIMIT_BYTES = 7900;

/**
 * Sends room events to every api process through socket.io's PostgreSQL adapter, as a server-side
 * emit in the message format that adapter reads (socket.io's own postgres-emitter 0.1.x omits the
 * message's namespace, which the adapter's cluster protocol requires, so its messages are silently
 * dropped). A failed publish is logged, never thrown: a lost event costs a stale badge, not a delivery.
 */
export class PostgresRoomEmitter implements RoomBroadcaster {
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  broadcast(events: RoomEvent[]): void {
    this.publish(events).catch((error: unknown) =>
      this.logger.warn({ err: error, events: events.length }, 'realtime events not published to postgres'),
    );
  }

  private async publish(events: RoomEvent[]): Promise<void> {
    const message = {
      uid: EMITTER_UID,
      nsp: NAMESPACE,
      type: SERVER_SIDE_EMIT,
      data: { packet: [ROOM_EVENTS, events] },
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
    const header = { uid: EMITTER_UID, nsp: NAMESPACE, type: SERVER_SIDE_EMIT, attachmentId: rows[0].id };
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(header)]);
  }
}
