import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { UntypedJson } from './untyped-json.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server that accepts everything and keeps the raw messages. */
export async function startSmtpReceiver(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

/** A local HTTP server recording every request; answers `status` (200 unless changed). */
export async function startHttpReceiver(): Promise<{
  url: string;
  requests: ReceivedRequest[];
  status: { code: number };
  close(): Promise<void>;
}> {
  const requests: ReceivedRequest[] = [];
  const status = { code: 200 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, json });
      response.writeHead(status.code, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    status,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ProviderRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: UntypedJson;
  form: URLSearchParams;
}

interface ProviderReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ProviderReceiver {
  url: string;
  requests: ProviderRequest[];
  /** Used first, one per request, in order (failure scripts); then `answer`. */
  queue: ProviderReply[];
  /** The default answer per request (a provider's success shape); 200 {} when it returns undefined. */
  answer: (request: ProviderRequest) => ProviderReply | undefined;
  close(): Promise<void>;
}

/** A provider API stand-in on 127.0.0.1 (HTTP/1.1, or cleartext HTTP/2 for APNs) recording every request. */
export async function startProviderReceiver(
  options: { http2?: boolean; answer?: ProviderReceiver['answer'] } = {},
): Promise<ProviderReceiver> {
  const state: ProviderReceiver = {
    url: '',
    requests: [],
    queue: [],
    answer: options.answer ?? (() => undefined),
    close: () => Promise.resolve(),
  };
  const handler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded: ProviderRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        json,
        form: new URLSearchParams(body),
      };
      state.requests.push(recorded);
      const reply = state.queue.shift() ?? state.answer(recorded) ?? {};
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {}));
    });
  };
  const server = options.http2 ? createHttp2Server(handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      (server as Server).closeAllConnections?.();
      server.close(() => resolve());
    });
  return state;
}

export interface StalledReceiver {
  url: string;
  /** Requests taken so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * An endpoint that is slow to answer: every request gets `status` after `answerAfterMs`, or, without
 * it, no answer at all (each call ends at the caller's timeout).
 */
export async function startStalledReceiver(
  options: { answerAfterMs?: number; status?: number } = {},
): Promise<StalledReceiver> {
  let received = 0;
  const server: Server = createServer((_request, response) => {
    received++;
    if (options.answerAfterMs === undefined) return;
    setTimeout(
      () => response.writeHead(options.status ?? 500, { 'content-type': 'application/json' }).end('{"error":"down"}'),
      options.answerAfterMs,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        // Held requests would otherwise keep close() waiting.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
