import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** Zulip's Slack-compatible incoming webhook URL (it carries the bot key and stream): {text}. */
export class ZulipProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'zulip';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    await postToChatWebhook('Zulip', message.webhookUrl, { text: message.content }, options);
    return { id: newId(), date: new Date().toISOString() };
  }
}
