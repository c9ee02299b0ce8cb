import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import { AppConfig, Clock, DomainError, LOGGER } from '#common';
import { ApiKeyCache, RealtimePublisher } from '#application';
import { InboxSessionValidator } from '../inbox/inbox-session.validator.js';
import { SessionTokens, type InboxSession } from '../inbox/session-token.js';
import { PresenceSweeper } from './presence-sweeper.js';
import { createSocketAdapter, type SocketAdapter } from './socket-adapter.js';
import { roomRelay } from './room-relay.js';
import { SocketSessionAudit } from './socket-session-audit.js';
import { ENVIRONMENT_DELETED, SubscriberPresence, type InboxServer, type InboxSocket } from './subscriber-presence.js';

/** Clients only listen: what they may send is a ping, so a frame beyond this is refused. */
const MAX_CLIENT_FRAME_BYTES = 4096;
/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Tabs of one subscriber on one api process; more is a leak or abuse of a token, each socket costs memory. */
const MAX_SOCKETS_PER_SUBSCRIBER = 50;

/**
 * The inbox socket (@novu/js connects with socket.io, websocket transport, the session token in the
 * query). socket.io is attached to the api's own HTTP server directly rather than through Nest's
 * gateway layer: the socket only pushes server events (no message handlers for decorators to route),
 * and the adapter choice, the handshake checks and the shutdown order stay in one visible place.
 * Websocket only: long polling would need sticky sessions across api processes.
 */
@Injectable()
export class InboxSocketServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server?: InboxServer;
  private adapter?: SocketAdapter;
  private stopping = false;

  constructor(
    private readonly httpAdapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
    private readonly tokens: SessionTokens,
    private readonly presence: SubscriberPresence,
    private readonly sweeper: PresenceSweeper,
    private readonly validator: InboxSessionValidator,
    private readonly audit: SocketSessionAudit,
    private readonly publisher: RealtimePublisher,
    private readonly apiKeys: ApiKeyCache,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.adapter = createSocketAdapter(this.config, this.logger);
    const server: InboxServer = new Server(this.httpAdapterHost.httpAdapter.getHttpServer() as HttpServer, {
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: MAX_CLIENT_FRAME_BYTES,
      allowRequest: (request, callback) => callback(null, this.originAllowed(request)),
      adapter: this.adapter.adapter,
    });
    server.use((socket, next) => {
      const { session, expiresAt } = this.authenticate(socket) ?? {};
      if (!session || !expiresAt) return next(new Error('Unauthorized: a valid inbox session token is required'));
      // The checks of every inbox HTTP request: a token of a deleted subscriber or of a session HMAC
      // now refuses opens nothing (and so never marks anyone online).
      this.validator.check(session).then(
        () => {
          const open = server.of('/').adapter.rooms.get(session.subscriberRowId)?.size ?? 0;
          if (open >= MAX_SOCKETS_PER_SUBSCRIBER) return next(new Error('Too many open sockets for this subscriber'));
          socket.data.session = session;
          socket.data.expiresAt = expiresAt;
          socket.data.processId = this.sweeper.processId;
          next();
        },
        (error: unknown) =>
          next(
            new Error(
              `Unauthorized: ${error instanceof DomainError ? error.message : 'the session could not be checked'}`,
            ),
          ),
      );
    });
    server.on('connection', (socket: InboxSocket) => {
      this.presence.connected(socket);
      // The session ends for an open socket too: the client then opens a new session and socket.
      const untilExpiry = Math.min(socket.data.expiresAt - this.clock.now().getTime(), MAX_TIMER_MS);
      const expiry = setTimeout(() => socket.disconnect(true), untilExpiry);
      socket.on('disconnect', () => {
        clearTimeout(expiry);
        if (!this.stopping) this.presence.disconnected(server, socket.data.session);
      });
    });
    this.server = server;
    this.publisher.useBroadcaster(roomRelay(server, this.adapter.adapter !== undefined));
    this.publisher.useSocketCloser((rooms) => server.in(rooms).disconnectSockets(true));
    if (this.adapter.adapter) {
      // The socket server's adapter is the channel between api processes that already exists.
      server.on(ENVIRONMENT_DELETED, (environmentId: unknown) => {
        if (typeof environmentId === 'string') this.apiKeys.forgetLocally(environmentId);
      });
      this.apiKeys.useClusterChannel((environmentId) => server.serverSideEmit(ENVIRONMENT_DELETED, environmentId));
    }
    await this.sweeper.start(server);
    this.audit.start(server);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.stopping = true;
    this.publisher.useBroadcaster(undefined);
    this.publisher.useSocketCloser(undefined);
    this.apiKeys.useClusterChannel(undefined);
    await this.audit.stop();
    const sessions = [...server.of('/').sockets.values()].map((socket) => socket.data.session);
    server.local.disconnectSockets(true);
    server.engine.close();
    await this.presence.stopped(server, sessions);
    await this.sweeper.stop();
    void server.of('/').adapter.close();
    await this.adapter?.close();
    this.server = undefined;
  }

  private authenticate(socket: InboxSocket): { session: InboxSession; expiresAt: number } | undefined {
    const fromQuery = socket.handshake.query.token;
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const token = typeof fromQuery === 'string' && fromQuery ? fromQuery : auth?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return undefined;
    try {
      return { session: this.tokens.verify(token), expiresAt: expiryOf(token) };
    } catch {
      return undefined;
    }
  }

  /** A browser's handshake carries its page's origin; other clients (servers, apps) send none. */
  private originAllowed(request: IncomingMessage): boolean {
    const allowed = this.config.inboxAllowedOrigins;
    const origin = request.headers.origin;
    return allowed === '*' || origin === undefined || allowed.includes(origin);
  }
}

/** The `exp` claim (ms) of a token SessionTokens has just verified, so its payload is well formed. */
function expiryOf(token: string): number {
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp: number };
  return claims.exp * 1000;
}
