import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type AppConfig } from '#common';
import { reasonPhrase, type ErrorBody } from './error-body.js';

// What a request must pass before its route runs: the process's load limit, the route's body limit,
// and URL and body checks that turn input PostgreSQL or class-transformer cannot take into 422s.

/** Probes answer even under overload: an orchestrator must not restart a busy process. */
const UNLIMITED_PATHS = new Set(['/health', '/metrics']);

/**
 * Load shedding: beyond the limit a request is refused at once with 503 + Retry-After (the standard
 * error body), before its body is read, instead of queueing. Clients back off; memory and latency
 * stay bounded whatever the number of clients (the rate limiter bounds each environment, this
 * bounds the process). The refusal is written directly rather than thrown: under overload it is
 * the most frequent answer, and the error path (stack capture, exception filter) would cost the
 * admitted requests CPU.
 *
 * The limit (MAX_IN_FLIGHT_REQUESTS, default 256): past saturation (about 50 concurrent triggers on
 * the 2-core test machine) more concurrency adds only waiting — every admitted request waits in
 * memory (the trigger batcher, the pg pool queue). 256 leaves room for batches to fill on faster
 * machines and for bursts, and bounds the wait to about 256 / throughput (an eighth of a second at
 * 2,000 triggers/s).
 */
export function installLoadShedding(fastify: FastifyInstance, limit: number): void {
  let inFlight = 0;
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (UNLIMITED_PATHS.has(request.url.split('?', 1)[0])) return;
    if (inFlight >= limit) {
      const body: ErrorBody = {
        statusCode: 503,
        message: 'The server is overloaded, retry shortly',
        error: reasonPhrase(503),
        path: request.url.length > 2_048 ? `${request.url.slice(0, 2_048)}…` : request.url,
        timestamp: new Date().toISOString(),
      };
      return reply.code(503).header('retry-after', '1').type('application/json; charset=utf-8').send(body);
    }
    inFlight++;
    // 'close' fires once per response, sent or aborted (onResponse misses aborted requests).
    reply.raw.once('close', () => inFlight--);
  });
}

/** Maximum events of one bulk trigger (spec: at most 100). */
export const MAX_BULK_EVENTS = 100;
/** Bulk subscriber upserts carry up to 500 full subscriber objects. */
const BULK_SUBSCRIBERS_LIMIT = 2 * 1024 * 1024;

/** Translation uploads carry up to 50 files of at most 1 MB each (checked per file by the route). */
const TRANSLATION_UPLOADS_LIMIT = 8 * 1024 * 1024;

/**
 * Per-route body limits (BEHAVIOR "Body limits"): triggers may carry large payloads, everything else
 * is small. Returns the limit that applies to a request path.
 */
export function bodyLimitFor(path: string, config: AppConfig): number {
  if (path.startsWith('/v1/events/trigger/bulk')) return config.triggerBodyLimit * MAX_BULK_EVENTS;
  if (path.startsWith('/v1/events/trigger')) return config.triggerBodyLimit;
  if (path.startsWith('/v1/subscribers/bulk')) return Math.max(config.bodyLimit, BULK_SUBSCRIBERS_LIMIT);
  if (path.startsWith('/v2/translations')) return Math.max(config.bodyLimit, TRANSLATION_UPLOADS_LIMIT);
  return config.bodyLimit;
}

export function largestBodyLimit(config: AppConfig): number {
  return Math.max(config.bodyLimit, config.triggerBodyLimit * MAX_BULK_EVENTS);
}

/** Deeper bodies are refused before validation: class-transformer recurses and would overflow. */
const MAX_BODY_DEPTH = 64;
const NUL = '\u0000';

/**
 * Checks a parsed request body (iteratively, so hostile nesting cannot overflow the stack): nesting
 * depth, and text PostgreSQL refuses in text and jsonb. Both are 422s here instead of failures
 * deeper down.
 */
export function assertAcceptableBody(body: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      assertStorableText(value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH)
      throw DomainError.validation('body', `The body must not be nested deeper than ${MAX_BODY_DEPTH} levels`);
    for (const [key, child] of Object.entries(value)) {
      assertStorableText(key);
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** PostgreSQL stores neither NUL nor lone UTF-16 surrogates (e.g. "\\udfff" in JSON). */
function assertStorableText(text: string): void {
  if (text.includes(NUL)) throw DomainError.validation('body', 'Strings must not contain NUL characters');
  if (!text.isWellFormed())
    throw DomainError.validation('body', 'Strings must be well-formed Unicode (no lone surrogates)');
}

/** A NUL anywhere in the path or query string (raw or percent-encoded) is refused. */
export function assertAcceptableUrl(url: string): void {
  if (url.includes(NUL) || /%00/i.test(url))
    throw DomainError.validation('url', 'The URL must not contain NUL characters');
}
