import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** Ryver incoming webhook (Ryver JSON format): {body} with the markdown content. */
export class RyverProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'ryver';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    await postToChatWebhook('Ryver', message.webhookUrl, { body: message.content }, options);
    return { id: newId(), date: new Date().toISOString() };
  }
}
