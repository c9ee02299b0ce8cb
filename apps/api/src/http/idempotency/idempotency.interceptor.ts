import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AppConfig, Clock, DomainError } from '#common';
import { IdempotencyRepository } from '#dal';

const HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
const GUARDED_METHODS = new Set(['POST', 'PATCH']);

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Idempotency-Key on every POST and PATCH (BEHAVIOR "Cross-cutting"): the first request runs and its
 * response is stored; a replay with the same body gets that response with `Idempotency-Replay: true`;
 * a replay while the first still runs gets 409; the same key with another body gets 422.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers[HEADER];
    if (!GUARDED_METHODS.has(request.method) || header === undefined || !request.auth) return next.handle();
    const key = Array.isArray(header) ? header[0] : header;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new DomainError('BAD_REQUEST', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
    }
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? (request.method === 'POST' ? 201 : 200);
    return from(this.run(request.auth, key, requestHash(request), status, reply, next));
  }

  private async run(
    auth: { environmentId: string; organizationId: string },
    key: string,
    hash: string,
    status: number,
    reply: FastifyReply,
    next: CallHandler,
  ): Promise<unknown> {
    const existing = await this.keys.claim(auth, key, hash, this.clock.now(), this.config.idempotencyTtlSeconds);
    if (existing) {
      if (existing.requestHash !== hash) {
        throw new DomainError('IDEMPOTENCY_BODY_MISMATCH', 'Idempotency-Key was already used with a different request body');
      }
      if (existing.state !== 'done') {
        throw new DomainError('IDEMPOTENCY_IN_FLIGHT', 'A request with this Idempotency-Key is still being processed', undefined, {
          'retry-after': '1',
        });
      }
      reply.header('idempotency-replay', 'true');
      return existing.responseBody;
    }
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.keys.complete(auth.environmentId, key, status, body);
      return body;
    } catch (error) {
      await this.keys.release(auth.environmentId, key);
      throw error;
    }
  }
}
