import { providerSend, type ProviderAnswer } from '../http/provider-request.js';
import type { SendOptions } from '../provider.js';

/** The URL and the parts of it that may be tokens: long path segments and query values. */
function urlSecrets(webhookUrl: string): string[] {
  try {
    const url = new URL(webhookUrl);
    const parts = [...url.pathname.split('/'), ...url.searchParams.values()].filter((part) => part.length >= 8);
    return [webhookUrl, url.pathname, ...parts];
  } catch {
    return [webhookUrl];
  }
}

/**
 * POSTs JSON to a subscriber's webhook URL. The URL is client-supplied (SSRF guard) and itself a
 * secret for most chat apps (the token is in the path), so it is redacted from every error text.
 */
export function postToChatWebhook(provider: string, webhookUrl: string, json: unknown, options: SendOptions, headers?: Record<string, string>): Promise<ProviderAnswer> {
  return providerSend({ provider, url: webhookUrl, guard: true, json, headers, secrets: urlSecrets(webhookUrl) }, options);
}
