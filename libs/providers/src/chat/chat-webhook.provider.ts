import { newId } from '#common';
import { postJson } from '../http/post-json.js';
import type { ChatMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';

/** Generic chat: POSTs the rendered content to the webhook URL the subscriber registered. */
export class ChatWebhookProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'chat-webhook';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const id = newId();
    const date = new Date().toISOString();
    const secret =
      typeof credentials.secretKey === 'string' && credentials.secretKey ? credentials.secretKey : undefined;
    await postJson(
      message.webhookUrl,
      {
        id,
        content: message.content,
        payload: message.payload,
        subscriberId: message.subscriberId,
        transactionId: message.transactionId,
        date,
      },
      { ...options, secret },
    );
    return { id, date };
  }
}
