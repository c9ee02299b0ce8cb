import { ROOM_EVENTS, type RoomBroadcaster, type RoomEvent } from '#application';
import type { InboxServer } from './subscriber-presence.js';

/**
 * The api's side of room events: emitted to this process's own sockets and, with a cluster adapter,
 * sent on to the other api processes in one server-side emit; what those (and workers) send arrives
 * the same way and is emitted here.
 */
export function roomRelay(server: InboxServer, clustered: boolean): RoomBroadcaster {
  server.on(ROOM_EVENTS, (events) => emitToOwnSockets(server, events));
  return {
    broadcast(events) {
      if (events.length === 0) return;
      emitToOwnSockets(server, events);
      if (clustered) server.serverSideEmit(ROOM_EVENTS, events);
    },
  };
}

/** Clients only listen, so the server's emit map is left untyped; the payloads are socket-events.ts's. */
type UntypedRoom = { emit(event: string, payload: unknown): boolean };

function emitToOwnSockets(server: InboxServer, events: RoomEvent[]): void {
  if (!Array.isArray(events)) return;
  for (const { room, event, payload } of events) (server.local.to(room) as unknown as UntypedRoom).emit(event, payload);
}
