import { apiBase, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import type { ProviderAdapter, ProviderCredentials, SendOptions, SendResult, SmsMessage } from '../provider.js';

/**
 * Twilio Messages (POST /2010-04-01/Accounts/{accountSid}/Messages.json, Basic accountSid:token,
 * form To/From/Body). A `from` starting with MG is a Messaging Service SID.
 */
export class TwilioProvider implements ProviderAdapter<SmsMessage> {
  readonly providerId = 'twilio';
  readonly channel = 'sms' as const;

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { accountSid, token, from } = required(credentials, this.providerId, ['accountSid', 'token', 'from']);
    const { base, guard } = apiBase(credentials, 'https://api.twilio.com');
    const form = new URLSearchParams({ To: message.to, Body: message.content });
    form.set(/^MG[0-9a-f]{32}$/i.test(from) ? 'MessagingServiceSid' : 'From', from);
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Twilio',
          url: `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
          guard,
          headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${token}`).toString('base64')}` },
          form,
          secrets: [token],
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { sid?: string; date_created?: string } | undefined;
    const created = body?.date_created ? new Date(body.date_created) : new Date();
    return { id: body?.sid ?? '', date: (Number.isNaN(created.getTime()) ? new Date() : created).toISOString() };
  }
}
