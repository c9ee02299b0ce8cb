import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** Mattermost incoming webhook: {text}, plus `channel` when the subscriber set one (overrides the hook's). */
export class MattermostProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'mattermost';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const channel = message.channelCredentials?.channel;
    await postToChatWebhook(
      'Mattermost',
      message.webhookUrl,
      { text: message.content, ...(channel ? { channel } : {}) },
      options,
    );
    return { id: newId(), date: new Date().toISOString() };
  }
}
