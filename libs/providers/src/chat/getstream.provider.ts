import { newId } from '#common';
import { required } from '../http/credentials.js';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** GetStream chat webhook: POST {text} to the subscriber's webhook URL with the X-API-KEY header. */
export class GetstreamProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'getstream';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey } = required(credentials, this.providerId, ['apiKey']);
    const answer = await postToChatWebhook('GetStream', message.webhookUrl, { text: message.content }, options, {
      'x-api-key': apiKey,
    });
    return { id: answer.headers.get('x-webhook-id') ?? newId(), date: new Date().toISOString() };
  }
}
