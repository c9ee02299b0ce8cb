import { createServer, Server, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { SendOptions } from '../provider.js';

/** Shared by the provider specs (named *.test.ts so jest does not run it and the build skips it). */
export const sendOptions: SendOptions = { timeoutMs: 2000, allowPrivateTargets: true };

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  form: URLSearchParams;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer this late (timeout tests). */
  delayMs?: number;
  /** Stream a body of this many bytes instead of `body`, as fast as the client reads it (hostile answers). */
  streamBytes?: number;
  /** With streamBytes: announce the size in Content-Length (else chunked). */
  declareLength?: boolean;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Replies used in order, one per request; afterwards `fallback`. */
  replies: Reply[];
  fallback: Reply;
  /** Bytes of streamed (`streamBytes`) bodies handed to the socket so far. */
  streamedBytes: number;
  /** Connections accepted so far (HTTP/2 sessions with `http2: true`). */
  connections: number;
  /** HTTP/2 only: the sessions open now. */
  openSessions(): number;
  /** HTTP/2 only: ends every open session with GOAWAY, as a server going away does. */
  goAway(): void;
  close(): Promise<void>;
}

/** What the handler uses of a request, HTTP/1.1 or HTTP/2 compatibility API alike. */
interface IncomingRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** What the handler uses of a response, HTTP/1.1 or HTTP/2 compatibility API alike. */
interface OutgoingReply {
  readonly destroyed: boolean;
  readonly closed: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Buffer): boolean;
  end(): unknown;
  end(body: string): unknown;
  once(event: 'drain', listener: () => void): unknown;
}

function record(method: string, path: string, headers: IncomingHttpHeaders, body: string): Received {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { method, path, headers, body, json, form: new URLSearchParams(body) };
}

/** Writes `reply.streamBytes` bytes in 64 KB chunks, each only once the client has taken the previous ones. */
function streamBody(response: OutgoingReply, reply: Reply, state: Receiver): void {
  const total = reply.streamBytes!;
  const length: Record<string, string> = reply.declareLength ? { 'content-length': String(total) } : {};
  response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...length, ...reply.headers });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      if (response.destroyed || response.closed) return;
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      state.streamedBytes += piece.length;
      if (!response.write(piece)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  pump();
}

/** An HTTP/1.1 server on 127.0.0.1 (or HTTP/2 cleartext with `http2: true`) recording what it gets. */
export async function startReceiver(fallback: Reply = { status: 200, body: {} }, http2 = false): Promise<Receiver> {
  const requests: Received[] = [];
  const replies: Reply[] = [];
  const state: Receiver = {
    url: '',
    requests,
    replies,
    fallback,
    streamedBytes: 0,
    connections: 0,
    openSessions: () => 0,
    goAway: () => undefined,
    close: () => Promise.resolve(),
  };
  const handler = (request: IncomingRequest, response: OutgoingReply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push(record(request.method ?? '', request.url ?? '', request.headers, body));
      const reply = replies.shift() ?? state.fallback;
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      setTimeout(() => {
        if (response.destroyed || response.closed) return;
        if (reply.streamBytes !== undefined) return streamBody(response, reply, state);
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(text);
      }, reply.delayMs ?? 0);
    });
  };
  const sessions = new Set<ServerHttp2Session>();
  let server: Server | Http2Server;
  if (http2) {
    server = createHttp2Server(handler).on('session', (session) => {
      state.connections += 1;
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
  } else {
    server = createServer(handler).on('connection', () => (state.connections += 1));
  }
  state.openSessions = () => sessions.size;
  state.goAway = () => sessions.forEach((session) => session.close());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      if (server instanceof Server) server.closeAllConnections();
      // Clients keep HTTP/2 sessions open: the server would wait for them.
      sessions.forEach((session) => session.destroy());
      server.close(() => resolve());
    });
  return state;
}
