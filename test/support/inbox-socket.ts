import { io, type Socket } from 'socket.io-client';
import { AppConfig, type Clock } from '#common';
import { SessionTokens } from '#api/inbox/session-token.js';
import type { Body } from './untyped-json.js';

/** What a socket received, in order, and a way to wait for the next event of a name. */
export interface RecordedSocket {
  socket: Socket;
  events: { name: string; payload: Record<string, unknown> }[];
  next(name: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Later `next` calls look only at events that arrive after this call. */
  skipReceived(): void;
  close(): void;
}

/** Opens a socket the way @novu/js does (websocket transport, token in the query) and records its events. */
export function openInboxSocket(url: string, token: string, extra: { origin?: string } = {}): RecordedSocket {
  const socket = io(url, {
    transports: ['websocket'],
    query: { token },
    reconnection: false,
    forceNew: true,
    ...(extra.origin ? { extraHeaders: { origin: extra.origin } } : {}),
  });
  const events: RecordedSocket['events'] = [];
  let seen = 0;
  const waiters: (() => void)[] = [];
  socket.onAny((name: string, payload: Record<string, unknown>) => {
    events.push({ name, payload });
    for (const wake of waiters.splice(0)) wake();
  });
  const next = (name: string, timeoutMs = 10_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no ${name} event within ${timeoutMs} ms; received ${events.map((event) => event.name).join(', ')}`,
            ),
          ),
        timeoutMs,
      );
      const look = () => {
        const index = events.findIndex((event, position) => position >= seen && event.name === name);
        if (index === -1) return void waiters.push(look);
        seen = index + 1;
        clearTimeout(timer);
        resolve(events[index].payload);
      };
      look();
    });
  const skipReceived = () => {
    seen = events.length;
  };
  return { socket, events, next, skipReceived, close: () => void socket.disconnect() };
}

/** Resolves on connect, rejects with the server's reason on connect_error. */
export function connected(recorded: RecordedSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (recorded.socket.connected) return resolve();
    recorded.socket.once('connect', () => resolve());
    recorded.socket.once('connect_error', (error: Error) => reject(error));
  });
}

/** Session tokens signed with a deployment's encryption key, as POST /v1/inbox/session issues them. */
function sessionTokens(encryptionKey: string, clock: Clock): SessionTokens {
  return new SessionTokens(Object.assign(new AppConfig(), { encryptionKey }), clock);
}

/** A session token for a subscriber as the API returns it (its _id, _environmentId, _organizationId). */
export function sessionTokenFor(encryptionKey: string, clock: Clock, subscriber: Body): string {
  return sessionTokens(encryptionKey, clock).issue({
    environmentId: subscriber._environmentId as string,
    organizationId: subscriber._organizationId as string,
    subscriberRowId: subscriber._id as string,
    subscriberId: subscriber.subscriberId as string,
    // Never deleted in the tests that make their own tokens.
    generation: 0,
    hashProven: false,
    contextKeys: [],
  });
}

/** Opens an inbox socket for the subscriber at `url` and waits for it to connect (closed again if it cannot). */
export async function connectInbox(
  url: string,
  encryptionKey: string,
  clock: Clock,
  subscriber: Body,
): Promise<RecordedSocket> {
  const recorded = openInboxSocket(url, sessionTokenFor(encryptionKey, clock, subscriber));
  try {
    await connected(recorded);
  } catch (error) {
    recorded.close();
    throw error;
  }
  return recorded;
}
