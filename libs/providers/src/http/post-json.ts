import { createHmac } from 'node:crypto';
import { ProviderError, type SendOptions } from '../provider.js';
import { assertPublicTarget } from './target-guard.js';

export const SIGNATURE_HEADER = 'x-novu-signature';

/**
 * POSTs a JSON body with a timeout; signs it (HMAC-SHA256 of the exact body, hex) when a secret is
 * given. 5xx, 429 and network errors are retryable; other non-2xx answers are not.
 */
export async function postJson(rawUrl: string, body: unknown, options: SendOptions & { secret?: string }): Promise<{ status: number; text: string }> {
  const url = await assertPublicTarget(rawUrl, options.allowPrivateTargets);
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.secret) headers[SIGNATURE_HEADER] = createHmac('sha256', options.secret).update(json).digest('hex');
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: json, redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderError(timedOut ? `Webhook timed out after ${options.timeoutMs} ms` : `Webhook request failed: ${(error as Error).message}`, true);
  }
  const text = (await response.text().catch(() => '')).slice(0, 2000);
  if (!response.ok) {
    throw new ProviderError(`Webhook answered HTTP ${response.status}`, response.status >= 500 || response.status === 429, text);
  }
  return { status: response.status, text };
}
