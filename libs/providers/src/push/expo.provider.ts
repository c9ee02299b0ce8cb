import { apiBase, optional } from '../http/credentials.js';
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

interface ExpoTicket {
  status?: 'ok' | 'error';
  id?: string;
  message?: string;
  details?: { error?: string };
}

/**
 * Expo push service: POST /--/api/v2/push/send with {to, title, body, data}; `apiKey` is the optional
 * access token (Bearer). Expo answers 200 with a ticket: status "error" + DeviceNotRegistered means
 * the token is dead, MessageRateExceeded is worth a retry.
 */
export class ExpoProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'expo';
  readonly channel = 'push' as const;

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { base, guard } = apiBase(credentials, 'https://exp.host');
    const accessToken = optional(credentials, 'apiKey');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Expo',
          url: `${base}/--/api/v2/push/send`,
          guard,
          headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
          json: { to: message.deviceToken, title: message.title, body: message.content, data: message.payload },
        },
        message.overrides,
      ),
      options,
    );
    const data = (answer.data as { data?: ExpoTicket | ExpoTicket[] } | undefined)?.data;
    const ticket = Array.isArray(data) ? data[0] : data;
    if (!ticket) throw new ProviderError('Expo answered without a push ticket', true, answer.text);
    if (ticket.status === 'error') {
      const code = ticket.details?.error;
      if (code === 'DeviceNotRegistered')
        throw new InvalidDeviceTokenError(`Expo rejected the device token: ${ticket.message ?? code}`, answer.text);
      throw new ProviderError(
        `Expo refused the notification: ${ticket.message ?? code ?? 'no reason given'}`,
        code === 'MessageRateExceeded',
        answer.text,
      );
    }
    return { id: ticket.id ?? '', date: new Date().toISOString() };
  }
}
