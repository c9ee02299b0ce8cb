import { urlSecrets } from '../http/post-json.js';
import { providerSend, type ProviderAnswer } from '../http/provider-request.js';
import type { SendOptions } from '../provider.js';

/**
 * POSTs JSON to a subscriber's webhook URL. The URL is client-supplied (SSRF guard) and itself a
 * secret for most chat apps (the token is in the path), so it is redacted from every error text.
 */
export function postToChatWebhook(
  provider: string,
  webhookUrl: string,
  json: unknown,
  options: SendOptions,
  headers?: Record<string, string>,
): Promise<ProviderAnswer> {
  return providerSend(
    { provider, url: webhookUrl, guard: true, json, headers, secrets: urlSecrets(webhookUrl) },
    options,
  );
}
