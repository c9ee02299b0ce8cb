import { apiBase, mailbox, optional, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import { withOverrides } from '../http/request-overrides.js';
import {
  recipientsOf,
  type EmailMessage,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/**
 * Mailgun (POST /v3/{domain}/messages, Basic auth `api:<key>` — `user` overrides the user name —
 * form-encoded fields). EU accounts set baseUrl to https://api.eu.mailgun.net.
 */
export class MailgunProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'mailgun';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, domain, from } = required(credentials, this.providerId, ['apiKey', 'domain', 'from']);
    const { base, guard } = apiBase(credentials, 'https://api.mailgun.net');
    const user = optional(credentials, 'user') ?? 'api';
    const form = new URLSearchParams({
      from: mailbox(from, optional(credentials, 'senderName')),
      to: recipientsOf(message).join(','),
      subject: message.subject,
    });
    if (message.html) form.set('html', message.html);
    if (message.text) form.set('text', message.text);
    if (message.cc?.length) form.set('cc', message.cc.join(','));
    if (message.bcc?.length) form.set('bcc', message.bcc.join(','));
    if (message.replyTo) form.set('h:Reply-To', message.replyTo);
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Mailgun',
          url: `${base}/v3/${encodeURIComponent(domain)}/messages`,
          guard,
          headers: { authorization: `Basic ${Buffer.from(`${user}:${apiKey}`).toString('base64')}` },
          form,
          secrets: [apiKey],
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { id?: string } | undefined;
    return { id: body?.id ?? '', date: new Date().toISOString() };
  }
}
