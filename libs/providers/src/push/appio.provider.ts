import { apiBase, required } from '../http/credentials.js';
import { httpFailure, providerRequest, providerSend } from '../http/provider-request.js';
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
 * App IO (Italy's public-services app) messages API, header Ocp-Apim-Subscription-Key = apiKey.
 * The device token is the citizen's fiscal code: POST /profiles checks the service may write to them
 * (404 = unknown citizen), then POST /messages sends {fiscal_code, content: {subject, markdown}}.
 */
export class AppioProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'appio';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey } = required(credentials, this.providerId, ['apiKey']);
    const { base, guard } = apiBase(credentials, 'https://api.io.italia.it/api/v1');
    const headers = { 'ocp-apim-subscription-key': apiKey };
    const profileCall = {
      provider: 'App IO',
      url: `${base}/profiles`,
      guard,
      headers,
      json: { fiscal_code: message.deviceToken },
    };
    const profile = await providerRequest(profileCall, options);
    if (profile.status === 404)
      throw new InvalidDeviceTokenError('App IO has no profile for this fiscal code', profile.text);
    if (!profile.ok) throw httpFailure(profileCall, profile);
    if ((profile.data as { sender_allowed?: boolean } | undefined)?.sender_allowed !== true) {
      throw new ProviderError('App IO: the citizen does not accept messages from this service', false, profile.text);
    }
    const answer = await providerSend(
      {
        provider: 'App IO',
        url: `${base}/messages`,
        guard,
        headers,
        json: { fiscal_code: message.deviceToken, content: { subject: message.title, markdown: message.content } },
      },
      options,
    );
    return { id: (answer.data as { id?: string } | undefined)?.id ?? '', date: new Date().toISOString() };
  }
}
