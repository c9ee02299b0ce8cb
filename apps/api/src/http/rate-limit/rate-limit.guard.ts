import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, DomainError, type RateLimitCategory } from '#common';
import { IS_PUBLIC } from '../../auth/auth-context.js';
import { rateLimitHeaders, type TokenBucketStore } from './token-bucket.js';

export const TOKEN_BUCKET_STORE = Symbol('TOKEN_BUCKET_STORE');

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function rateLimitCategory(method: string, path: string): RateLimitCategory {
  if (path.startsWith('/v1/events/')) return 'trigger';
  return WRITE_METHODS.has(method) ? 'configuration' : 'global';
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
    const key = `${this.config.queuePrefix}:ratelimit:${request.auth.environmentId}:${category}`;
    const decision = await this.store.take(key, setting);
    const headers = rateLimitHeaders(decision, setting);
    if (!decision.allowed) {
      throw new DomainError('RATE_LIMITED', `Too many ${category} requests for this environment, retry after ${headers['retry-after']} s`, undefined, headers);
    }
    context.switchToHttp().getResponse<FastifyReply>().headers(headers);
    return true;
  }
}
