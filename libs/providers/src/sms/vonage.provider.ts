import { apiBase, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
  type SmsMessage,
} from '../provider.js';

/** Vonage statuses worth another try: 1 throttled, 5 internal error. */
const RETRYABLE_STATUSES = new Set(['1', '5']);

/**
 * Vonage (Nexmo) SMS API (POST /sms/json, form api_key/api_secret/from/to/text). It answers HTTP 200
 * even on failure: the per-message `status` ("0" = accepted) carries the outcome.
 */
export class VonageProvider<Id extends 'vonage' | 'nexmo' = 'vonage'> implements ProviderAdapter<SmsMessage> {
  readonly channel = 'sms' as const;

  /** Novu names it `nexmo`; both ids are registered. */
  constructor(readonly providerId: Id = 'vonage' as Id) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, secretKey, from } = required(credentials, this.providerId, ['apiKey', 'secretKey', 'from']);
    const { base, guard } = apiBase(credentials, 'https://rest.nexmo.com');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Vonage',
          url: `${base}/sms/json`,
          guard,
          form: new URLSearchParams({
            api_key: apiKey,
            api_secret: secretKey,
            from,
            to: message.to.replace(/^\+/, ''),
            text: message.content,
          }),
          secrets: [secretKey],
        },
        message.overrides,
      ),
      options,
    );
    const first = (
      answer.data as { messages?: { status?: string; 'message-id'?: string; 'error-text'?: string }[] } | undefined
    )?.messages?.[0];
    if (!first) throw new ProviderError('Vonage answered without a message status', true, answer.text);
    if (first.status !== '0') {
      throw new ProviderError(
        `Vonage refused the message (status ${first.status}): ${first['error-text'] ?? 'no reason given'}`,
        RETRYABLE_STATUSES.has(first.status ?? ''),
        answer.text,
      );
    }
    return { id: first['message-id'] ?? '', date: new Date().toISOString() };
  }
}
