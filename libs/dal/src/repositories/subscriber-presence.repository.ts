import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { subscribers, type SubscriberRow } from '../schema/index.js';
import { liveSubscriber } from './live-subscriber.js';
import { uuids } from './table-sql.js';

/** A subscriber (row id) held online by an api process's socket. */
export interface OnlineHold {
  id: string;
  processId: string;
}

/** What an inbox socket event shows of its subscriber: never channel credentials or device tokens. */
const SOCKET_SUBSCRIBER_COLUMNS = {
  id: subscribers.id,
  subscriberId: subscribers.subscriberId,
  firstName: subscribers.firstName,
  lastName: subscribers.lastName,
  avatar: subscribers.avatar,
  locale: subscribers.locale,
  timezone: subscribers.timezone,
  email: subscribers.email,
  phone: subscribers.phone,
  data: subscribers.data,
};

export type InboxSocketSubscriber = Pick<SubscriberRow, keyof typeof SOCKET_SUBSCRIBER_COLUMNS>;

/**
 * A subscriber's `isOnline` / `lastOnlineAt` and the api process holding it online: set through the
 * API, by inbox sockets, and settled after a crashed api process. The rest of the subscriber row is
 * SubscriberRepository's.
 */
@Injectable()
export class SubscriberPresenceRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}
  /** The API's online-status route: the presence stays as set, no sweep undoes it. */
  async setOnline(
    environmentId: string,
    subscriberId: string,
    isOnline: boolean,
    at: Date,
  ): Promise<SubscriberRow | undefined> {
    return this.writePresence(liveSubscriber(environmentId, subscriberId), isOnline, at, undefined);
  }

  /**
   * An inbox socket's presence, held by the api process with the socket (`heldBy`), so a sweep can
   * undo it once that process dies. Only on the row and generation the socket's session was issued
   * for: a socket of a deleted subscriber never marks the one restored under its id.
   */
  async setSocketPresence(
    socket: { environmentId: string; subscriberRowId: string; generation: number },
    isOnline: boolean,
    at: Date,
    heldBy: string | undefined,
  ): Promise<void> {
    await this.writePresence(
      and(
        eq(subscribers.environmentId, socket.environmentId),
        eq(subscribers.id, socket.subscriberRowId),
        eq(subscribers.generation, socket.generation),
        eq(subscribers.deleted, false),
      ),
      isOnline,
      at,
      heldBy,
    );
  }

  private async writePresence(
    where: SQL | undefined,
    isOnline: boolean,
    at: Date,
    heldBy: string | undefined,
  ): Promise<SubscriberRow | undefined> {
    const [row] = await this.db
      .update(subscribers)
      .set({
        isOnline,
        lastOnlineAt: at,
        onlineProcessId: isOnline ? (heldBy ?? null) : null,
        version: sql`${subscribers.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(where)
      .returning();
    return row;
  }

  /**
   * The subscribers among `ids` (row ids) with an open inbox socket, with what a socket event shows
   * of them. Probed in the index of online subscribers (`subscribers_online_idx`), which is small
   * whether none or thousands are online; the primary key would visit a row per id of a delivered batch.
   */
  async onlineAmong(environmentId: string, ids: string[]): Promise<InboxSocketSubscriber[]> {
    if (ids.length === 0) return [];
    return this.db
      .select(SOCKET_SUBSCRIBER_COLUMNS)
      .from(subscribers)
      .where(
        and(
          eq(subscribers.environmentId, environmentId),
          eq(subscribers.isOnline, true),
          sql`${subscribers.id} = ANY(${uuids(ids)})`,
        ),
      );
  }

  /** Several subscribers (by row id) of one environment go offline at once: an api process stopping. */
  async setOfflineMany(environmentId: string, ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(subscribers)
      .set({
        isOnline: false,
        lastOnlineAt: at,
        onlineProcessId: null,
        version: sql`${subscribers.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(
        and(eq(subscribers.environmentId, environmentId), inArray(subscribers.id, ids), eq(subscribers.deleted, false)),
      );
  }

  /**
   * Subscribers (row id and holder) that a process set online and that has not heartbeated within
   * `staleAfterMs`: it crashed. Across environments, as the process's sockets were. The holders come
   * from a skip scan of the partial index (a few probes per process), so the usual answer, none,
   * costs the same however many subscribers are online; their subscribers are a second statement,
   * planned with the dead ids known (an index scan for a few rows, not a scan of the table).
   */
  async onlineOnDeadProcesses(staleAfterMs: number, limit: number): Promise<OnlineHold[]> {
    const dead = await this.db.execute<{ id: string }>(sql`
      WITH RECURSIVE holder AS (
        (SELECT online_process_id AS id FROM subscribers WHERE online_process_id IS NOT NULL ORDER BY 1 LIMIT 1)
        UNION ALL
        SELECT (SELECT s.online_process_id FROM subscribers s WHERE s.online_process_id > holder.id
                ORDER BY s.online_process_id LIMIT 1)
        FROM holder WHERE holder.id IS NOT NULL
      )
      SELECT id FROM holder
      WHERE id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM api_processes p
        WHERE p.id = holder.id AND p.heartbeat_at >= now() - make_interval(secs => ${staleAfterMs / 1000})
      )`);
    if (dead.rows.length === 0) return [];
    return this.db
      .select({ id: subscribers.id, processId: sql<string>`${subscribers.onlineProcessId}` })
      .from(subscribers)
      .where(
        inArray(
          subscribers.onlineProcessId,
          dead.rows.map((row) => row.id),
        ),
      )
      .limit(limit);
  }

  /**
   * Settles what onlineOnDeadProcesses found: a subscriber whose room still has a socket (`holder`, the
   * live process holding it) stays online, now held by that process; the others go offline. A row
   * is touched only while the dead process still holds it, so a socket that opened or closed since
   * (its own write) is never overwritten.
   */
  async settleOnlineOnDeadProcesses(settled: (OnlineHold & { holder?: string })[], at: Date): Promise<void> {
    if (settled.length === 0) return;
    const input = settled.map(({ id, processId, holder }) => ({ id, dead: processId, holder: holder ?? null }));
    await this.db.execute(sql`
      UPDATE subscribers s SET
        is_online = c.holder IS NOT NULL,
        online_process_id = c.holder,
        last_online_at = CASE WHEN c.holder IS NULL THEN ${at.toISOString()}::timestamptz ELSE s.last_online_at END,
        version = CASE WHEN c.holder IS NULL THEN s.version + 1 ELSE s.version END,
        updated_at = CASE WHEN c.holder IS NULL THEN now() ELSE s.updated_at END
      FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS c(id uuid, dead uuid, holder uuid)
      WHERE s.id = c.id AND s.online_process_id = c.dead`);
  }
}
