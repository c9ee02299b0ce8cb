import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, DomainError, type RateLimitCategory } from '#common';
import { IS_PUBLIC } from '../../auth/auth-context.js';
import { MAX_BULK_EVENTS } from '../request-admission.js';
import { rateLimitHeaders, type TokenBucketStore } from './token-bucket.js';

export const TOKEN_BUCKET_STORE = Symbol('TOKEN_BUCKET_STORE');

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function rateLimitCategory(method: string, path: string): RateLimitCategory {
  if (path.startsWith('/v1/events/')) return 'trigger';
  return WRITE_METHODS.has(method) ? 'configuration' : 'global';
}

/**
 * Tokens a request costs: one, but one per event for a bulk trigger, so 100 events in one request
 * count as 100 triggers (capped at the bulk maximum: a longer list is refused by validation anyway).
 * Guards run after Fastify parsed the body.
 */
export function rateLimitCost(method: string, path: string, body: unknown): number {
  if (method !== 'POST' || !/^\/v1\/events\/trigger\/bulk\/?(\?|$)/.test(path)) return 1;
  const events = (body as { events?: unknown } | null | undefined)?.events;
  return Array.isArray(events) ? Math.min(Math.max(events.length, 1), MAX_BULK_EVENTS) : 1;
}

/**
 * One token bucket per environment and category. Runs after the API key guard (it needs the
 * environment) and before the Idempotency-Key guard, so a limited request never claims a key.
 * Public routes (health, metrics) are not limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    @Inject(TOKEN_BUCKET_STORE) private readonly store: TokenBucketStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.rateLimitEnabled) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!request.auth) return true;
    const category = rateLimitCategory(request.method, request.url);
    const setting = this.config.rateLimits[category];
    const cost = rateLimitCost(request.method, request.url, request.body);
    const key = `${this.config.queuePrefix}:ratelimit:${request.auth.environmentId}:${category}`;
    const decision = await this.store.take(key, setting, cost);
    const headers = rateLimitHeaders(decision, setting, cost);
    if (!decision.allowed) {
      const message =
        cost > setting.burst
          ? `A bulk of ${cost} events needs ${cost} ${category} tokens, more than this environment's burst of ${setting.burst}: send fewer events per request`
          : cost > 1
            ? `Too many ${category} requests for this environment: a bulk of ${cost} events needs ${cost} tokens, retry after ${headers['retry-after']} s`
            : `Too many ${category} requests for this environment, retry after ${headers['retry-after']} s`;
      throw new DomainError('RATE_LIMITED', message, undefined, headers);
    }
    context.switchToHttp().getResponse<FastifyReply>().headers(headers);
    return true;
  }
}
