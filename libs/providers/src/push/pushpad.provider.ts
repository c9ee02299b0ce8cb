import { apiBase, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import {
  InvalidDeviceTokenError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/**
 * Pushpad: POST /api/v1/projects/{projectId}/notifications (Authorization: Token token="...") with the
 * notification and `uids: [deviceToken]` (Pushpad targets your user ids). Credentials as Novu:
 * apiKey = auth token, applicationId = project id. `scheduled: 0` means that uid has no subscription.
 */
export class PushpadProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'pushpad';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, applicationId } = required(credentials, this.providerId, ['apiKey', 'applicationId']);
    const { base, guard } = apiBase(credentials, 'https://pushpad.xyz');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Pushpad',
          url: `${base}/api/v1/projects/${encodeURIComponent(applicationId)}/notifications`,
          guard,
          headers: { authorization: `Token token="${apiKey}"` },
          json: { notification: { title: message.title, body: message.content }, uids: [message.deviceToken] },
          secrets: [apiKey],
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { id?: number | string; scheduled?: number } | undefined;
    if (body?.scheduled === 0)
      throw new InvalidDeviceTokenError('Pushpad has no subscription for this uid', answer.text);
    return { id: body?.id === undefined ? '' : String(body.id), date: new Date().toISOString() };
  }
}
