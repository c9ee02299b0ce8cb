import { apiBase, required } from '../http/credentials.js';
import { httpFailure, providerRequest } from '../http/provider-request.js';
import {
  ProviderError,
  type ChatMessage,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/** Graph API error codes that are rate limits (retry later) rather than bad requests. */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);

/**
 * WhatsApp Business Cloud API: POST /{phoneNumberIdentification}/messages on the Graph API with the
 * Bearer access token (apiToken), a text message to the subscriber's phone number.
 */
export class WhatsappBusinessProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'whatsapp-business';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiToken, phoneNumberIdentification } = required(credentials, this.providerId, [
      'apiToken',
      'phoneNumberIdentification',
    ]);
    if (!message.phone)
      throw new ProviderError('WhatsApp Business needs the subscriber phone number', false, undefined, 'target');
    const { base, guard } = apiBase(credentials, 'https://graph.facebook.com/v21.0');
    const call = {
      provider: 'WhatsApp Business',
      url: `${base}/${encodeURIComponent(phoneNumberIdentification)}/messages`,
      guard,
      headers: { authorization: `Bearer ${apiToken}` },
      json: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: message.phone.replace(/^\+/, ''),
        type: 'text',
        text: { preview_url: false, body: message.content },
      },
    };
    const answer = await providerRequest(call, options);
    if (!answer.ok) {
      const code = (answer.data as { error?: { code?: number } } | undefined)?.error?.code;
      throw httpFailure(call, answer, undefined, RATE_LIMIT_CODES.has(code ?? -1) || undefined);
    }
    return {
      id: (answer.data as { messages?: { id?: string }[] } | undefined)?.messages?.[0]?.id ?? '',
      date: new Date().toISOString(),
    };
  }
}
