import { assertHostCredentials } from '../http/credential-formats.js';
import { apiBase, required, stringMap } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import type { ProviderAdapter, ProviderCredentials, PushMessage, SendOptions, SendResult } from '../provider.js';

/**
 * Pusher Beams publish to users: POST /publish_api/v1/instances/{instanceId}/publishes/users on
 * {instanceId}.pushnotifications.pusher.com, Bearer secretKey; the device token is the Beams user id.
 */
export class PusherBeamsProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'pusher-beams';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { instanceId, secretKey } = required(credentials, this.providerId, ['instanceId', 'secretKey']);
    assertHostCredentials(this.providerId, credentials);
    const { base, guard } = apiBase(
      credentials,
      `https://${encodeURIComponent(instanceId)}.pushnotifications.pusher.com`,
    );
    const notification = { title: message.title, body: message.content };
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Pusher Beams',
          url: `${base}/publish_api/v1/instances/${encodeURIComponent(instanceId)}/publishes/users`,
          guard,
          headers: { authorization: `Bearer ${secretKey}` },
          json: {
            users: [message.deviceToken],
            apns: { aps: { alert: notification }, data: message.payload },
            fcm: { notification, data: stringMap(message.payload) },
            web: { notification, data: message.payload },
          },
        },
        message.overrides,
      ),
      options,
    );
    return { id: (answer.data as { publishId?: string } | undefined)?.publishId ?? '', date: new Date().toISOString() };
  }
}
