import { apiBase, mailbox, optional, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import type { EmailMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';

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
      to: message.to,
      subject: message.subject,
    });
    if (message.html) form.set('html', message.html);
    if (message.text) form.set('text', message.text);
    const answer = await providerSend(
      {
        provider: 'Mailgun',
        url: `${base}/v3/${encodeURIComponent(domain)}/messages`,
        guard,
        headers: { authorization: `Basic ${Buffer.from(`${user}:${apiKey}`).toString('base64')}` },
        form,
        secrets: [apiKey],
      },
      options,
    );
    const body = answer.data as { id?: string } | undefined;
    return { id: body?.id ?? '', date: new Date().toISOString() };
  }
}
