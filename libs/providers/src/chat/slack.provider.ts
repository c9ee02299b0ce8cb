import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** Slack incoming webhook: POST {text} to the subscriber's webhook URL (Slack answers plain "ok"). */
export class SlackProvider<Id extends 'slack' | 'service-slack' = 'slack'> implements ProviderAdapter<ChatMessage> {
  readonly channel = 'chat' as const;

  /** `service-slack` is the same delivery for Novu's Slack-app integration. */
  constructor(readonly providerId: Id = 'slack' as Id) {}

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    await postToChatWebhook('Slack', message.webhookUrl, { text: message.content }, options);
    return { id: newId(), date: new Date().toISOString() };
  }
}
