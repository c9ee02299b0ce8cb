import { apiBase, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import {
  InvalidDeviceTokenError,
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/**
 * OneSignal Create Notification: POST /notifications (Authorization: Key <REST API key>) to one
 * subscription id, with app_id (applicationId), headings, contents and data. OneSignal answers 200
 * with an empty id and `errors` when the subscription is unknown or unsubscribed.
 */
export class OneSignalProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'one-signal';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, applicationId } = required(credentials, this.providerId, ['apiKey', 'applicationId']);
    const { base, guard } = apiBase(credentials, 'https://api.onesignal.com');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'OneSignal',
          url: `${base}/notifications`,
          guard,
          headers: { authorization: `Key ${apiKey}` },
          json: {
            app_id: applicationId,
            target_channel: 'push',
            include_subscription_ids: [message.deviceToken],
            headings: { en: message.title },
            contents: { en: message.content },
            data: message.payload,
          },
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { id?: string; errors?: unknown } | undefined;
    if (body?.id) return { id: body.id, date: new Date().toISOString() };
    const errors = body?.errors;
    const invalidIds =
      typeof errors === 'object' && errors !== null && !Array.isArray(errors)
        ? Object.values(errors as Record<string, unknown>).flat()
        : [];
    const texts = Array.isArray(errors) ? errors.map(String) : [];
    if (invalidIds.includes(message.deviceToken) || texts.some((text) => /not subscribed|invalid/i.test(text))) {
      throw new InvalidDeviceTokenError(
        `OneSignal rejected the subscription id: ${texts.join('; ') || 'invalid subscription id'}`,
        answer.text,
      );
    }
    throw new ProviderError(
      `OneSignal created no notification${texts.length ? `: ${texts.join('; ')}` : ''}`,
      false,
      answer.text,
    );
  }
}
