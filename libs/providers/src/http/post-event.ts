import { request } from 'undici';
import { ProviderError } from '../provider.js';
import { guardedDispatcher } from './provider-request.js';
import { assertPublicTarget } from './target-guard.js';

export interface EventPostOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

export interface EventPostAnswer {
  status: number;
  retryAfter: string | null;
}

/** The most of a receiver's answer that is read before the connection is cut: the body is not used. */
const MAX_DISCARDED_BYTES = 64 * 1024;

/**
 * One POST of an event to a receiver that only needs to acknowledge it (outbound webhooks): the SSRF
 * guard as for providers, the time-out over the whole exchange, no redirect followed (a 3xx is
 * answered as it came), and the answer's body discarded after at most 64 KB. undici's `request`
 * rather than fetch: it sends the same bytes at a fraction of fetch's CPU per call (no WHATWG
 * Request/Response or stream objects), which counts at thousands of events a second.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: EventPostOptions,
): Promise<EventPostAnswer> {
  const target = await assertPublicTarget(url, options.allowPrivateTargets);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  try {
    const answer = await request(target, {
      method: 'POST',
      headers,
      body,
      signal: deadline.signal,
      ...(options.allowPrivateTargets ? {} : { dispatcher: guardedDispatcher }),
    });
    await answer.body.dump({ limit: MAX_DISCARDED_BYTES }).catch(() => undefined);
    const retryAfter = answer.headers['retry-after'];
    return { status: answer.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : null };
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const failure = error as Error & { code?: string; cause?: unknown };
    // The guard refused the address the connection resolved (DNS rebinding).
    if (failure.cause instanceof ProviderError) throw failure.cause;
    const reason = deadline.signal.aborted
      ? `timed out after ${options.timeoutMs} ms`
      : `request failed: ${failure.code ?? failure.message}`;
    throw new ProviderError(`The webhook endpoint ${reason}`, true);
  } finally {
    clearTimeout(timer);
  }
}
