import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reasonPhrase, type ErrorBody } from './error-body.js';

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
