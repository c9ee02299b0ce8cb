import { createHmac } from 'node:crypto';
import type { SendOptions } from '../provider.js';
import { providerSend, type ProviderAnswer } from './provider-request.js';

export const SIGNATURE_HEADER = 'x-novu-signature';

/**
 * The x-novu-signature value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<exact body>">`. The
 * timestamp is signed with the body so a receiver can refuse a captured request sent again later
 * (docs/providers.md, "Webhook signatures": 5 minutes of tolerance); an HMAC of the body alone could be replayed
 * forever. `v1` names the scheme, so another one can be added next to it without breaking receivers.
 */
export function webhookSignature(secret: string, body: string, now = Date.now()): string {
  const timestamp = Math.floor(now / 1000);
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

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
 * POSTs a JSON body to a client-supplied webhook URL (SSRF guard, timeout); signs it (webhookSignature:
 * the send time and the exact body) when a secret is given. 5xx, 429 and network errors are retryable; other
 * non-2xx answers are not. The URL and the secret never show in error texts.
 */
export function postJson(
  url: string,
  body: unknown,
  options: SendOptions & { secret?: string },
): Promise<ProviderAnswer> {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.secret) headers[SIGNATURE_HEADER] = webhookSignature(options.secret, json);
  return providerSend(
    { provider: 'Webhook', url, guard: true, headers, body: json, secrets: [...urlSecrets(url), options.secret] },
    options,
  );
}
