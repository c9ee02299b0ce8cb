import type { InboxBadgeCounts, InboxSocketSubscriber, MessageRow } from '#dal';
import { withoutUnsafeUrls } from '../messages/cta-urls.js';

// The wire of the inbox sockets: the rooms events go to, how they travel between processes, and the
// payloads Novu's clients read.

/**
 * The room of a subscriber's sockets opened for one context (sorted `type:id` keys; none for a session
 * without context): a message and the badge counts reach only the sessions of exactly its context.
 */
export function contextRoom(subscriberRowId: string, contextKeys: readonly string[]): string {
  return `${subscriberRowId}|${[...contextKeys].sort().join(',')}`;
}

/** One event for the sockets in one room (a subscriber's row id, or one of its context rooms). */
export interface RoomEvent {
  room: string;
  event: string;
  payload: unknown;
}

/**
 * Delivers room events to the sockets of every api process: the api's socket server or a worker's
 * emitter. All the events of one call travel between processes as one message (socket.io's
 * server-side emit), whatever their number: a delivered batch of 500 in-app messages is one message
 * and one decode in each api process, not 500.
 */
export interface RoomBroadcaster {
  broadcast(events: RoomEvent[]): void;
}

/** The server-side event that carries room events from one process to every api process. */
export const ROOM_EVENTS = 'inbox:room-events';

/** The events an inbox socket receives, with the payloads Novu's clients read. */
export const SOCKET_EVENTS = {
  notificationReceived: 'notification_received',
  unseenCountChanged: 'unseen_count_changed',
  unreadCountChanged: 'unread_count_changed',
} as const;

const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

function socketSubscriber(row: InboxSocketSubscriber) {
  return {
    _id: row.id,
    subscriberId: row.subscriberId,
    firstName: row.firstName,
    lastName: row.lastName,
    avatar: row.avatar,
    locale: row.locale,
    timezone: row.timezone,
    email: row.email,
    phone: row.phone,
    data: row.data,
  };
}

/**
 * A message as Novu's socket sends it (its stored message document), which @novu/js maps into a
 * notification. `cta` is always an object: the client reads `cta.action` without a guard. Its unsafe
 * urls are dropped again for a message stored before the in-app step dropped them (a snoozed one waking up).
 */
export function toSocketMessage(row: MessageRow, subscriber: InboxSocketSubscriber) {
  const seenAt = row.lastSeenDate?.toISOString();
  return {
    _id: row.id,
    _environmentId: row.environmentId,
    _organizationId: row.organizationId,
    _notificationId: row.notificationId,
    _subscriberId: row.subscriberId,
    _templateId: row.workflowId,
    templateIdentifier: row.templateIdentifier ?? undefined,
    transactionId: row.transactionId,
    channel: row.channel,
    subject: row.subject ?? undefined,
    // A stored block list is not rendered for the inbox: it shows as empty, as in the inbox lists.
    content: typeof row.content === 'string' ? row.content : '',
    cta: withoutUnsafeUrls(row.cta ?? {}).cta,
    read: row.read,
    seen: row.seen,
    archived: row.archived,
    snoozedUntil: row.snoozedUntil?.toISOString(),
    deliveredAt: row.deliveredAt ?? [],
    createdAt: row.createdAt.toISOString(),
    lastReadDate: row.lastReadDate?.toISOString(),
    lastSeenDate: seenAt,
    firstSeenDate: seenAt,
    archivedAt: row.archivedAt?.toISOString(),
    tags: row.tags ?? [],
    data: row.data ?? undefined,
    severity: (SEVERITIES as readonly string[]).includes(row.severity) ? row.severity : 'none',
    subscriber: socketSubscriber(subscriber),
  };
}

export type SocketMessage = ReturnType<typeof toSocketMessage>;

/**
 * `unread_count_changed` carries @novu/js's `counts` ({ total, severity }) and the plain number
 * older Novu clients read as `unreadCount`.
 */
export function unreadCountPayload(counts: InboxBadgeCounts) {
  const severity = Object.fromEntries(SEVERITIES.map((level) => [level, counts.unread.severity[level] ?? 0]));
  return {
    unreadCount: counts.unread.total,
    hasMore: false,
    counts: { total: counts.unread.total, severity },
  };
}

export function unseenCountPayload(counts: InboxBadgeCounts) {
  return { unseenCount: counts.unseen, hasMore: false };
}
