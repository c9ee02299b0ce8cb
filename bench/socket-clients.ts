import { io, type Socket } from 'socket.io-client';

/**
 * A load-generator process holding many inbox sockets, driven by its parent over IPC
 * (bench/socket-fleet.ts). Each socket is its own websocket connection, opened as @novu/js opens
 * it: socket.io, websocket transport, the session token in the query.
 */

export type FleetCommand =
  | { type: 'connect'; url: string; tokens: string[]; concurrency: number; timeoutMs: number }
  /** `members`: indexes (into this process's tokens) of the sockets the notification is for. */
  | { type: 'watch'; transactionId: string; members: number[] }
  | { type: 'report' }
  | { type: 'close' };

export type FleetReply =
  | { type: 'connected'; connected: number; failed: number; firstError?: string; seconds: number }
  | { type: 'done'; transactionId: string }
  | {
      type: 'report';
      /** Arrival times (ms since the epoch) of the watched notification, one per member socket reached. */
      arrivals: number[];
      /** Connected member sockets the notification is expected on. */
      expected: number;
      duplicates: number;
      /** The watched notification on a socket it was not for. */
      wrongRecipients: number;
      /** Other notifications (an earlier trigger arriving late). */
      others: number;
      disconnects: number;
    };

const sockets: Socket[] = [];
const connectedIndexes = new Set<number>();
/** socket index → arrival time (ms since epoch, sub-ms) of the watched notification. */
let arrivals = new Map<number, number>();
let watched: { transactionId: string; members: Set<number>; expected: number } | undefined;
let duplicates = 0;
let wrongRecipients = 0;
let others = 0;
let disconnects = 0;

const now = () => performance.timeOrigin + performance.now();
const send = (reply: FleetReply) => process.send?.(reply);

function transactionOf(payload: unknown): string | undefined {
  const body = payload as { message?: { transactionId?: string }; transactionId?: string } | undefined;
  return body?.message?.transactionId ?? body?.transactionId;
}

function onNotification(index: number, payload: unknown): void {
  const at = now();
  if (!watched || transactionOf(payload) !== watched.transactionId) {
    others += 1;
    return;
  }
  if (!watched.members.has(index)) {
    wrongRecipients += 1;
    return;
  }
  if (arrivals.has(index)) {
    duplicates += 1;
    return;
  }
  arrivals.set(index, at);
  if (arrivals.size === watched.expected) send({ type: 'done', transactionId: watched.transactionId });
}

function openSocket(url: string, token: string, index: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // forceNew: socket.io-client otherwise multiplexes every io() to one URL over one connection.
    const socket = io(url, {
      forceNew: true,
      transports: ['websocket'],
      query: { token },
      reconnectionDelayMax: 10_000,
      timeout: timeoutMs,
    });
    sockets.push(socket);
    socket.on('notification_received', (payload: unknown) => onNotification(index, payload));
    socket.on('disconnect', () => (disconnects += 1));
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error: Error) => {
      socket.close();
      reject(error);
    });
  });
}

async function connectAll(command: Extract<FleetCommand, { type: 'connect' }>): Promise<void> {
  const started = now();
  let next = 0;
  let connected = 0;
  let failed = 0;
  let firstError: string | undefined;
  const lane = async () => {
    while (next < command.tokens.length) {
      const index = next++;
      try {
        await openSocket(command.url, command.tokens[index], index, command.timeoutMs);
        connectedIndexes.add(index);
        connected += 1;
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: command.concurrency }, lane));
  send({ type: 'connected', connected, failed, firstError, seconds: (now() - started) / 1000 });
}

process.on('message', (command: FleetCommand) => {
  switch (command.type) {
    case 'connect':
      void connectAll(command);
      break;
    case 'watch': {
      arrivals = new Map();
      duplicates = 0;
      wrongRecipients = 0;
      others = 0;
      const members = new Set(command.members);
      const expected = command.members.filter((index) => connectedIndexes.has(index)).length;
      watched = { transactionId: command.transactionId, members, expected };
      if (expected === 0) send({ type: 'done', transactionId: command.transactionId });
      break;
    }
    case 'report':
      send({
        type: 'report',
        arrivals: [...arrivals.values()],
        expected: watched?.expected ?? 0,
        duplicates,
        wrongRecipients,
        others,
        disconnects,
      });
      break;
    case 'close':
      for (const socket of sockets) socket.close();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
