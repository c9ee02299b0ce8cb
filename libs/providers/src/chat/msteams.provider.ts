import { newId } from '#common';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/** A content that is a JSON object (a MessageCard or Adaptive Card message) is sent as is. */
function card(content: string): Record<string, unknown> | undefined {
  if (!content.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(content) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Microsoft Teams incoming webhook: the content as a card when it is card JSON, else {text}. */
export class MsTeamsProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'msteams';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, _credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    await postToChatWebhook(
      'Microsoft Teams',
      message.webhookUrl,
      card(message.content) ?? { text: message.content },
      options,
    );
    return { id: newId(), date: new Date().toISOString() };
  }
}
