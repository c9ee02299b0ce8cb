import { required } from '../http/credentials.js';
import {
  ProviderError,
  type ChatMessage,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
} from '../provider.js';
import { postToChatWebhook } from './webhook-chat.js';

/**
 * Rocket.Chat REST chat.sendMessage: the subscriber's webhookUrl is the server URL and `channel` the
 * room id; the integration holds the personal access token (token) and user id (user).
 */
export class RocketChatProvider implements ProviderAdapter<ChatMessage> {
  readonly providerId = 'rocket-chat';
  readonly channel = 'chat' as const;

  async send(message: ChatMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { token, user } = required(credentials, this.providerId, ['token', 'user']);
    const roomId = message.channelCredentials?.channel;
    if (!roomId)
      throw new ProviderError(
        'Rocket.Chat needs the room id in the subscriber channel credentials (channel)',
        false,
        undefined,
        'target',
      );
    const answer = await postToChatWebhook(
      'Rocket.Chat',
      `${message.webhookUrl.replace(/\/+$/, '')}/api/v1/chat.sendMessage`,
      { message: { rid: roomId, msg: message.content } },
      options,
      { 'x-auth-token': token, 'x-user-id': user },
    );
    const sent = (answer.data as { message?: { _id?: string; ts?: string } } | undefined)?.message;
    return { id: sent?._id ?? '', date: sent?.ts ?? new Date().toISOString() };
  }
}
