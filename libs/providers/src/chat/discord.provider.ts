import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** Discord webhook: POST {content}; `wait=true` makes Discord answer the created message (its id). */
export class DiscordProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'discord';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    let url = message.webhookUrl;
    try {
      const parsed = new URL(message.webhookUrl);
      parsed.searchParams.set('wait', 'true');
      url = parsed.toString();
    } catch {
      // left as is: the SSRF guard reports the invalid URL
    }
    const answer = await postToChatWebhook('Discord', url, { content: message.content }, options);
    const id = (answer.data as { id?: string } | undefined)?.id;
    return { id: id ?? newId(), date: new Date().toISOString() };
  }
}
