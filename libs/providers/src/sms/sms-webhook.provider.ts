import { newId } from '#common';
import { optional } from '../http/credentials.js';
import { postJson } from '../http/post-json.js';
import { ProviderError, type ProviderAdapter, type ProviderCredentials, type SendOptions, type SendResult, type SmsMessage } from '../provider.js';

/** Reads a dotted path (`data.id`) from a JSON answer. */
function at(value: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  return path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), value);
}

/**
 * Generic SMS: POSTs {id, to, from, content, date} as JSON to the integration's webhookUrl, signed like
 * chat-webhook (x-novu-signature = hex HMAC-SHA256 of the body) when the integration has a secretKey.
 * idPath / datePath pick the provider's message id and date out of the answer.
 */
export class SmsWebhookProvider implements ProviderAdapter<SmsMessage> {
  readonly providerId = 'sms-webhook';
  readonly channel = 'sms' as const;

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const webhookUrl = optional(credentials, 'webhookUrl') ?? optional(credentials, 'baseUrl');
    if (!webhookUrl) throw new ProviderError('The sms-webhook integration has no webhookUrl', false);
    const id = newId();
    const date = new Date().toISOString();
    const answer = await postJson(
      webhookUrl,
      { id, to: message.to, from: optional(credentials, 'from') ?? null, content: message.content, date },
      { ...options, secret: optional(credentials, 'secretKey') },
    );
    let parsed: unknown;
    try {
      parsed = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      parsed = undefined;
    }
    const answeredId = at(parsed, optional(credentials, 'idPath'));
    const answeredDate = at(parsed, optional(credentials, 'datePath'));
    return { id: typeof answeredId === 'string' || typeof answeredId === 'number' ? String(answeredId) : id, date: typeof answeredDate === 'string' ? answeredDate : date };
  }
}
