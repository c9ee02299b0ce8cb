import { apiBase, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import type { ProviderAdapter, ProviderCredentials, SendOptions, SendResult, SmsMessage } from '../provider.js';

/**
 * Plivo Message API (POST /v1/Account/{authId}/Message/, Basic authId:authToken, JSON src/dst/text).
 * Credentials: accountSid = Auth ID, token = Auth Token, from.
 */
export class PlivoProvider implements ProviderAdapter<SmsMessage> {
  readonly providerId = 'plivo';
  readonly channel = 'sms' as const;

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { accountSid, token, from } = required(credentials, this.providerId, ['accountSid', 'token', 'from']);
    const { base, guard } = apiBase(credentials, 'https://api.plivo.com');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Plivo',
          url: `${base}/v1/Account/${encodeURIComponent(accountSid)}/Message/`,
          guard,
          headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${token}`).toString('base64')}` },
          json: { src: from, dst: message.to, text: message.content },
          secrets: [token],
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { message_uuid?: string[]; api_id?: string } | undefined;
    return { id: body?.message_uuid?.[0] ?? body?.api_id ?? '', date: new Date().toISOString() };
  }
}
