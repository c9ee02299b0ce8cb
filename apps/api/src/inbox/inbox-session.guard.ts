import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '#common';
import { EnvironmentRepository, SubscriberRepository, type SubscriberRow } from '#dal';
import { Public } from '../auth/auth-context.js';
import { InboxRateLimiter } from './inbox-rate-limiter.js';
import { SessionTokens, type InboxSession } from './session-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    inboxSession?: InboxSession;
    inboxSubscriber?: SubscriberRow;
  }
}

/**
 * Short: a deleted subscriber or environment stops being served within this time, and a list shows
 * the subscriber's name as it was at most this long ago.
 */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;

/**
 * `Authorization: Bearer <session token>` on the `/v1/inbox/*` routes (the API-key guard lets them
 * through as @Public()). The token must verify, its environment must exist and its subscriber row
 * must still be a live subscriber of that environment; then one token of the subscriber's bucket.
 */
@Injectable()
export class InboxSessionGuard implements CanActivate {
  private readonly live = new Map<string, { until: number; subscriber: SubscriberRow }>();

  constructor(
    private readonly tokens: SessionTokens,
    private readonly environments: EnvironmentRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly limiter: InboxRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (!header) throw new DomainError('UNAUTHORIZED', 'Missing authorization header: start an inbox session first');
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer' || !token) throw new DomainError('UNAUTHORIZED', 'Invalid authentication scheme');
    const session = this.tokens.verify(token.trim());
    const [subscriber, headers] = await Promise.all([
      this.liveSubscriber(session),
      this.limiter.take('subscriber', session.subscriberRowId),
    ]);
    context.switchToHttp().getResponse<FastifyReply>().headers(headers);
    request.inboxSession = session;
    request.inboxSubscriber = subscriber;
    return true;
  }

  /** The session's subscriber row, if it and its environment still exist. */
  private async liveSubscriber(session: InboxSession): Promise<SubscriberRow> {
    const key = `${session.environmentId}:${session.subscriberRowId}:${session.subscriberId}`;
    const cached = this.live.get(key);
    if (cached && cached.until > Date.now()) return cached.subscriber;
    const [environment, [subscriber]] = await Promise.all([
      this.environments.findEnvironmentById(session.environmentId),
      this.subscribers.findByIds(session.environmentId, [session.subscriberRowId]),
    ]);
    if (!environment || environment.organizationId !== session.organizationId)
      throw new DomainError('UNAUTHORIZED', 'The environment of this inbox session no longer exists');
    if (!subscriber || subscriber.subscriberId !== session.subscriberId)
      throw new DomainError('UNAUTHORIZED', 'The subscriber of this inbox session no longer exists');
    if (this.live.size >= CACHE_MAX_ENTRIES) this.live.clear();
    this.live.set(key, { until: Date.now() + CACHE_TTL_MS, subscriber });
    return subscriber;
  }
}

/** Injects the inbox session the guard verified. */
export const InboxSubscriber = createParamDecorator((_data: unknown, context: ExecutionContext): InboxSession => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.inboxSession) throw new Error('InboxSubscriber used on a route without InboxSessionGuard');
  return request.inboxSession;
});

/** The session's subscriber row as the guard found it (at most a few seconds old): for reads only. */
export const InboxSubscriberRow = createParamDecorator((_data: unknown, context: ExecutionContext): SubscriberRow => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.inboxSubscriber) throw new Error('InboxSubscriberRow used on a route without InboxSessionGuard');
  return request.inboxSubscriber;
});

/** A controller of the browser's inbox: no API key, an inbox session token instead. */
export const InboxSessionAuth = () => applyDecorators(Public(), UseGuards(InboxSessionGuard), ApiBearerAuth());
