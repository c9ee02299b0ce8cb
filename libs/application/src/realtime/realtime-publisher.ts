import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import {
  asStoredMessage,
  emptyBadgeCounts,
  InboxMessageRepository,
  SubscriberPresenceRepository,
  type NewMessageRow,
  type SubscriberRow,
} from '#dal';
import {
  contextRoom,
  SOCKET_EVENTS,
  toSocketMessage,
  unreadCountPayload,
  unseenCountPayload,
  type RoomBroadcaster,
  type RoomEvent,
} from './socket-events.js';

/** Closes the sockets in the rooms of these subscribers (row ids) on every api process. */
export type SocketCloser = (subscriberRowIds: string[]) => void;

/** Publishes beyond this many at once are dropped: a slow database must not pile up work behind deliveries. */
const MAX_PENDING_PUBLISHES = 256;

/**
 * Pushes inbox changes to the sockets of a subscriber (room = its row id), from api and worker
 * processes alike. Never awaited by its callers and never throws: a lost event costs a stale badge
 * until the inbox's next fetch, a failed delivery would cost the notification. Subscribers without
 * an open socket (`isOnline` false) are left out by one probe of the online ones and cost nothing more.
 */
@Injectable()
export class RealtimePublisher implements OnModuleDestroy {
  private broadcaster?: RoomBroadcaster;
  private closeSockets?: SocketCloser;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly messages: InboxMessageRepository,
    private readonly presence: SubscriberPresenceRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Where room events go: the api's socket server, which reaches the other api processes through its
   * adapter, or a worker's emitter (libs/realtime).
   */
  useBroadcaster(broadcaster: RoomBroadcaster | undefined): void {
    this.broadcaster = broadcaster;
  }

  /** The api's way to close subscribers' sockets on every api process; a worker holds none and deletes no one. */
  useSocketCloser(closer: SocketCloser | undefined): void {
    this.closeSockets = closer;
  }

  /** Deleted subscribers (row ids): their open inbox sockets close, here and on the other api processes. */
  subscribersDeleted(subscriberRowIds: string[]): void {
    if (subscriberRowIds.length > 0) this.closeSockets?.(subscriberRowIds);
  }

  /**
   * New or returning in-app messages, as written (committed): each to its subscriber, then the
   * subscribers' new counts. Messages come from the caller's hands, never read back; only those of
   * online subscribers are completed with the table's defaults.
   */
  delivered(environmentId: string, messages: NewMessageRow[]): void {
    if (!this.broadcaster || messages.length === 0) return;
    this.track(async (broadcaster) => {
      const online = await this.presence.onlineAmong(environmentId, [
        ...new Set(messages.map((row) => row.subscriberId)),
      ]);
      if (online.length === 0) return;
      const byId = new Map(online.map((subscriber) => [subscriber.id, subscriber]));
      const received: RoomEvent[] = [];
      for (const message of messages) {
        const subscriber = byId.get(message.subscriberId);
        if (subscriber)
          received.push({
            room: contextRoom(subscriber.id, message.contextKeys ?? []),
            event: SOCKET_EVENTS.notificationReceived,
            payload: { message: toSocketMessage(asStoredMessage(message), subscriber) },
          });
      }
      // Sent before the counts are read: the message is what the inbox waits for.
      broadcaster.broadcast(received);
      await this.emitCounts(broadcaster, environmentId, [...byId.keys()]);
    });
  }

  /**
   * A subscriber's messages changed state (read, seen, archived, snoozed, deleted...), those of these
   * contexts among others: their sessions hear the new counts, zeros included.
   */
  countsChanged(environmentId: string, subscriber: SubscriberRow, contexts: (readonly string[])[] = []): void {
    if (!this.broadcaster || !subscriber.isOnline) return;
    const touched = contexts.map((keys) => ({ subscriberId: subscriber.id, contextKeys: keys }));
    this.track((broadcaster) => this.emitCounts(broadcaster, environmentId, [subscriber.id], touched));
  }

  /**
   * Messages of these subscribers (row ids) and contexts changed without the subscribers' rows at
   * hand: counted only for those online.
   */
  countsChangedFor(environmentId: string, changed: { subscriberId: string; contextKeys: readonly string[] }[]): void {
    if (!this.broadcaster || changed.length === 0) return;
    this.track(async (broadcaster) => {
      const online = await this.presence.onlineAmong(environmentId, [
        ...new Set(changed.map((group) => group.subscriberId)),
      ]);
      if (online.length === 0) return;
      const onlineIds = new Set(online.map((subscriber) => subscriber.id));
      await this.emitCounts(
        broadcaster,
        environmentId,
        [...onlineIds],
        changed.filter((group) => onlineIds.has(group.subscriberId)),
      );
    });
  }

  /** Resolves once the publishes under way have gone out (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }

  async onModuleDestroy(): Promise<void> {
    await this.settled();
    this.broadcaster = undefined;
  }

  /**
   * The badge counts of each context room of these subscribers that has something unseen or unread,
   * and zeros for the `touched` contexts that have nothing left.
   */
  private async emitCounts(
    broadcaster: RoomBroadcaster,
    environmentId: string,
    subscriberIds: string[],
    touched: { subscriberId: string; contextKeys: readonly string[] }[] = [],
  ) {
    const byRoom = new Map(
      touched.map((group) => [contextRoom(group.subscriberId, group.contextKeys), emptyBadgeCounts()]),
    );
    for (const group of await this.messages.badgeCounts(environmentId, subscriberIds))
      byRoom.set(contextRoom(group.subscriberId, group.contextKeys), group.counts);
    broadcaster.broadcast(
      [...byRoom].flatMap(([room, badge]) => [
        { room, event: SOCKET_EVENTS.unseenCountChanged, payload: unseenCountPayload(badge) },
        { room, event: SOCKET_EVENTS.unreadCountChanged, payload: unreadCountPayload(badge) },
      ]),
    );
  }

  private track(work: (broadcaster: RoomBroadcaster) => Promise<void>): void {
    const broadcaster = this.broadcaster;
    if (!broadcaster) return;
    if (this.pending.size >= MAX_PENDING_PUBLISHES) {
      this.logger.warn('realtime publishes backed up; an inbox event was dropped');
      return;
    }
    const running = work(broadcaster)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'realtime event not published'))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }
}
