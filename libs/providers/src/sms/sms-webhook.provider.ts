import { newId } from '#common';
import { optional } from '../http/credentials.js';
import { SIGNATURE_HEADER, webhookSignature } from '../http/post-json.js';
import { providerSend } from '../http/provider-request.js';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
  type SmsMessage,
} from '../provider.js';

/** Reads a dotted path (`data.id`) from a JSON answer. */
function at(value: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
      value,
    );
}

/**
 * Generic SMS: POSTs {id, to, from, content, date} as JSON to the integration's webhookUrl, signed like
 * chat-webhook (x-novu-signature = t=<unix>,v1=<hex HMAC-SHA256 of "t.body">) when the integration has
 * a secretKey. idPath / datePath pick the provider's message id and date out of the answer.
 */
export class SmsWebhookProvider implements ProviderAdapter<SmsMessage> {
  readonly providerId = 'sms-webhook';
  readonly channel = 'sms' as const;

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const webhookUrl = optional(credentials, 'webhookUrl') ?? optional(credentials, 'baseUrl');
    if (!webhookUrl)
      throw new ProviderError('The sms-webhook integration has no webhookUrl', false, undefined, 'credentials');
    const id = newId();
    const date = new Date().toISOString();
    const body = JSON.stringify({
      id,
      to: message.to,
      from: optional(credentials, 'from') ?? null,
      content: message.content,
      date,
    });
    const secret = optional(credentials, 'secretKey');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret) headers[SIGNATURE_HEADER] = webhookSignature(secret, body);
    const answer = await providerSend(
      { provider: 'SMS webhook', url: webhookUrl, guard: true, headers, body, secrets: [secret] },
      options,
    );
    const answeredId = at(answer.data, optional(credentials, 'idPath'));
    const answeredDate = at(answer.data, optional(credentials, 'datePath'));
    return {
      id: typeof answeredId === 'string' || typeof answeredId === 'number' ? String(answeredId) : id,
      date: typeof answeredDate === 'string' ? answeredDate : date,
    };
  }
}
