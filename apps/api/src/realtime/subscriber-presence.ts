import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { RemoteSocket, Server, Socket } from 'socket.io';
import { contextRoom, ROOM_EVENTS, type RoomEvent } from '#application';
import { Clock, LOGGER } from '#common';
import { SubscriberPresenceRepository } from '#dal';
import type { InboxSession } from '../inbox/session-token.js';
import { CLUSTER_REQUEST_TIMEOUT_MS } from './socket-adapter.js';

/**
 * What a socket carries from its handshake: its session, when the session's token expires (ms), and
 * the api process holding it (PresenceSweeper's id), which fetchSockets reports from every process.
 */
export interface InboxSocketData {
  session: InboxSession;
  expiresAt: number;
  processId: string;
}
/** Between api processes: the room events one of them (or a worker) sends to the sockets of all. */
/** The inter-server event of a deleted environment: every api process forgets its API keys. */
export const ENVIRONMENT_DELETED = 'environment-deleted';

interface InboxServerSideEvents {
  [ROOM_EVENTS]: (events: RoomEvent[]) => void;
  [ENVIRONMENT_DELETED]: (environmentId: string) => void;
}
export type InboxSocket = Socket<never, never, InboxServerSideEvents, InboxSocketData>;
export type InboxServer = Server<never, never, InboxServerSideEvents, InboxSocketData>;

/**
 * A subscriber's `isOnline` / `lastOnlineAt`: online from its first socket on any api process,
 * offline after its last one closes. One process's updates for one subscriber run in order; across
 * processes, the last-disconnect check asks every process (the adapter's fetchSockets) and, after
 * writing offline, asks again, so a socket opened meanwhile elsewhere is never left marked offline.
 * An online row names the process holding one of its sockets, for PresenceSweeper when that one dies.
 */
@Injectable()
export class SubscriberPresence {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly presence: SubscriberPresenceRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  connected(socket: InboxSocket): void {
    const { session } = socket.data;
    // The subscriber's room closes its sockets; the context room carries its messages and counts.
    void socket.join([session.subscriberRowId, contextRoom(session.subscriberRowId, session.contextKeys)]);
    this.inOrder(session, () => this.setOnline(session, socket.data.processId));
  }

  disconnected(server: InboxServer, session: InboxSession): void {
    this.inOrder(session, async () => {
      if (await this.holderOf(server, session)) return;
      await this.setOnline(session, undefined);
      const holder = await this.holderOf(server, session);
      if (holder) await this.setOnline(session, holder);
    });
  }

  /**
   * An api process stops: its subscribers with no socket on another process go offline in one
   * statement per environment (each socket's own last-disconnect check would be one round trip each).
   */
  async stopped(server: InboxServer, sessions: InboxSession[]): Promise<void> {
    await Promise.allSettled(this.chains.values());
    if (sessions.length === 0) return;
    const rooms = [...new Set(sessions.map((session) => session.subscriberRowId))];
    const elsewhere = await server
      .timeout(CLUSTER_REQUEST_TIMEOUT_MS)
      .in(rooms)
      .fetchSockets()
      .then(
        (sockets: RemoteSocket<never, InboxSocketData>[]) =>
          new Set(sockets.map((s) => s.data.session.subscriberRowId)),
      )
      .catch(() => new Set<string>());
    const byEnvironment = new Map<string, Set<string>>();
    for (const { environmentId, subscriberRowId } of sessions) {
      if (elsewhere.has(subscriberRowId)) continue;
      byEnvironment.set(environmentId, (byEnvironment.get(environmentId) ?? new Set()).add(subscriberRowId));
    }
    const now = this.clock.now();
    await Promise.all(
      [...byEnvironment].map(([environmentId, ids]) =>
        this.presence.setOfflineMany(environmentId, [...ids], now).catch((error: unknown) => {
          this.logger.warn({ err: error, environmentId }, 'subscribers not marked offline at shutdown');
        }),
      ),
    );
  }

  /** The api process holding one of the subscriber's sockets, if any process holds one. */
  private async holderOf(server: InboxServer, session: InboxSession): Promise<string | undefined> {
    const sockets = await server.timeout(CLUSTER_REQUEST_TIMEOUT_MS).in(session.subscriberRowId).fetchSockets();
    return sockets[0]?.data.processId;
  }

  /** Online, held by the given process, or offline without one. */
  private async setOnline(session: InboxSession, heldBy: string | undefined): Promise<void> {
    await this.presence.setSocketPresence(session, heldBy !== undefined, this.clock.now(), heldBy);
  }

  private inOrder(session: InboxSession, update: () => Promise<void>): void {
    const key = session.subscriberRowId;
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(update)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, subscriberId: session.subscriberId }, 'presence not updated'),
      )
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    this.chains.set(key, next);
  }
}
