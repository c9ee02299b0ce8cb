import { createHmac } from 'node:crypto';
import type { SendOptions } from '../provider.js';
import { providerSend, type ProviderAnswer } from './provider-request.js';

export const SIGNATURE_HEADER = 'x-novu-signature';

/** The URL and the parts of it that may be tokens: long path segments and query values. */
export function urlSecrets(rawUrl: string): string[] {
  try {
    const url = new URL(rawUrl);
    const parts = [...url.pathname.split('/'), ...url.searchParams.values()].filter((part) => part.length >= 8);
    return [rawUrl, url.pathname, ...parts];
  } catch {
    return [rawUrl];
  }
}

/**
 * POSTs a JSON body to a client-supplied webhook URL (SSRF guard, timeout); signs it (HMAC-SHA256 of
 * the exact body, hex) when a secret is given. 5xx, 429 and network errors are retryable; other
 * non-2xx answers are not. The URL and the secret never show in error texts.
 */
export function postJson(url: string, body: unknown, options: SendOptions & { secret?: string }): Promise<ProviderAnswer> {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.secret) headers[SIGNATURE_HEADER] = createHmac('sha256', options.secret).update(json).digest('hex');
  return providerSend({ provider: 'Webhook', url, guard: true, headers, body: json, secrets: [...urlSecrets(url), options.secret] }, options);
}
