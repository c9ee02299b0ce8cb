import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { AppConfig, Clock, DomainError } from '#common';
import { IdempotencyRepository } from '#dal';

const HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
const GUARDED_METHODS = new Set(['POST', 'PATCH']);

/** Turns a route's response body into the form that is stored and replayed. */
export type ReplayForm = (body: unknown) => unknown;

const REPLAY_FORM = 'idempotencyReplayForm';
/**
 * For routes whose responses carry secrets (integration credentials): only `form(body)` is stored
 * and replayed, so the key's row holds no secret and a replay never hands out one, old or current.
 */
export const ReplayedWithout = (form: ReplayForm) => SetMetadata(REPLAY_FORM, form);

/** The key a request claimed, kept on the request until its response is known. */
interface ClaimedKey {
  environmentId: string;
  key: string;
  replayForm?: ReplayForm;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: ClaimedKey;
  }
}

/** Answers a request with the stored response of its key instead of running it; sent by the exception filter. */
export class ReplayedResponse extends Error {
  override readonly name = 'ReplayedResponse';

  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('Idempotency-Key replay: the stored response is sent instead');
  }
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Idempotency-Key on every POST and PATCH (BEHAVIOR "Cross-cutting"): the first request runs and its
 * response is stored; a replay with the same body gets that response with `Idempotency-Replay: true`;
 * a replay while the first still runs gets 409; the same key with another body gets 422.
 *
 * A guard that claims the key plus an `onSend` hook that stores the response (`completeOnSend`), not a
 * Nest interceptor: any interceptor puts every request of every route through Nest's rxjs pipeline,
 * which was ~20 % of the api's CPU per trigger although almost no request carries the header. It
 * must run after the API key and rate-limit guards (a limited request claims nothing): its module is
 * imported after theirs.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers[HEADER];
    if (!GUARDED_METHODS.has(request.method) || header === undefined || !request.auth) return true;
    const key = Array.isArray(header) ? header[0] : header;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new DomainError('BAD_REQUEST', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
    }
    const hash = requestHash(request);
    const existing = await this.keys.claim(
      request.auth,
      key,
      hash,
      this.clock.now(),
      this.config.idempotencyTtlSeconds,
    );
    if (!existing) {
      const replayForm = this.reflector.getAllAndOverride<ReplayForm | undefined>(REPLAY_FORM, [
        context.getHandler(),
        context.getClass(),
      ]);
      request.idempotencyKey = { environmentId: request.auth.environmentId, key, replayForm };
      return true;
    }
    if (existing.requestHash !== hash) {
      throw new DomainError(
        'IDEMPOTENCY_BODY_MISMATCH',
        'Idempotency-Key was already used with a different request body',
      );
    }
    if (existing.state !== 'done') {
      throw new DomainError(
        'IDEMPOTENCY_IN_FLIGHT',
        'A request with this Idempotency-Key is still being processed',
        undefined,
        {
          'retry-after': '1',
        },
      );
    }
    throw new ReplayedResponse(existing.responseStatus ?? 200, existing.responseBody);
  }
}

/**
 * Stores the response of a request that claimed a key, before it is written: a success is kept for
 * replays, a failure releases the key so the client's corrected retry runs. Errors here are logged,
 * never turned into a failure of a request that already succeeded (the key then expires with its TTL).
 */
export function completeOnSend(keys: IdempotencyRepository, logger: Logger) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const claimed = request.idempotencyKey;
    if (!claimed) return payload;
    request.idempotencyKey = undefined;
    try {
      if (reply.statusCode < 400) {
        const body: unknown = typeof payload === 'string' && payload.length > 0 ? JSON.parse(payload) : null;
        await keys.complete(
          claimed.environmentId,
          claimed.key,
          reply.statusCode,
          claimed.replayForm ? claimed.replayForm(body) : body,
        );
      } else {
        await keys.release(claimed.environmentId, claimed.key);
      }
    } catch (error) {
      logger.warn({ reqId: request.id, err: error }, 'idempotency key not updated');
    }
    return payload;
  };
}
