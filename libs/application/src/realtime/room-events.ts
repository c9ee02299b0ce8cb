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
