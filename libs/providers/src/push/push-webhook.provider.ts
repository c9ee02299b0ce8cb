import { newId } from '#common';
import { postJson } from '../http/post-json.js';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/** Generic push: POSTs one notification per device token to the integration's webhook URL. */
export class PushWebhookProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'push-webhook';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const webhookUrl = credentials.webhookUrl;
    if (typeof webhookUrl !== 'string' || !webhookUrl)
      throw new ProviderError('The push-webhook integration has no webhookUrl', false, undefined, 'credentials');
    const id = newId();
    const date = new Date().toISOString();
    const secret =
      typeof credentials.secretKey === 'string' && credentials.secretKey ? credentials.secretKey : undefined;
    await postJson(
      webhookUrl,
      {
        id,
        target: [message.deviceToken],
        title: message.title,
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
