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
import type { SubscriberRow } from '#dal';
import { Public } from '../auth/auth-context.js';
import { InboxRateLimiter } from './inbox-rate-limiter.js';
import { InboxSessionValidator } from './inbox-session.validator.js';
import { SessionTokens, type InboxSession } from './session-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    inboxSession?: InboxSession;
    inboxSubscriber?: SubscriberRow;
  }
}

/**
 * `Authorization: Bearer <session token>` on the `/v1/inbox/*` routes (the API-key guard lets them
 * through as @Public()). The token must verify and still speak for its subscriber (see
 * InboxSessionValidator: checked on every request, not cached, so a delete or an HMAC switch ends
 * the session at once on every api process); then one token of the subscriber's bucket.
 */
@Injectable()
export class InboxSessionGuard implements CanActivate {
  constructor(
    private readonly tokens: SessionTokens,
    private readonly validator: InboxSessionValidator,
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
      this.validator.check(session),
      this.limiter.take('subscriber', session.subscriberRowId),
    ]);
    context.switchToHttp().getResponse<FastifyReply>().headers(headers);
    request.inboxSession = session;
    request.inboxSubscriber = subscriber;
    return true;
  }
}

/** Injects the inbox session the guard verified. */
export const InboxSubscriber = createParamDecorator((_data: unknown, context: ExecutionContext): InboxSession => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.inboxSession) throw new Error('InboxSubscriber used on a route without InboxSessionGuard');
  return request.inboxSession;
});

/** The session's subscriber row as the guard read it for this request. */
export const InboxSubscriberRow = createParamDecorator((_data: unknown, context: ExecutionContext): SubscriberRow => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.inboxSubscriber) throw new Error('InboxSubscriberRow used on a route without InboxSessionGuard');
  return request.inboxSubscriber;
});

/** A controller of the browser's inbox: no API key, an inbox session token instead. */
export const InboxSessionAuth = () => applyDecorators(Public(), UseGuards(InboxSessionGuard), ApiBearerAuth());
