import { newId } from '#common';
import { apiBase, optional, required } from '../http/credentials.js';
import { providerSend } from '../http/provider-request.js';
import type { EmailMessage, ProviderAdapter, ProviderCredentials, SendOptions, SendResult } from '../provider.js';

/** SendGrid v3 Mail Send (POST /v3/mail/send, Bearer API key); answers 202 with X-Message-Id. */
export class SendgridProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'sendgrid';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, from } = required(credentials, this.providerId, ['apiKey', 'from']);
    const region = optional(credentials, 'region');
    const { base, guard } = apiBase(
      credentials,
      region === 'eu' ? 'https://api.eu.sendgrid.com' : 'https://api.sendgrid.com',
    );
    // SendGrid refuses empty content values and wants text/plain before text/html.
    const content = [
      ...(message.text ? [{ type: 'text/plain', value: message.text }] : []),
      ...(message.html ? [{ type: 'text/html', value: message.html }] : []),
    ];
    const answer = await providerSend(
      {
        provider: 'SendGrid',
        url: `${base}/v3/mail/send`,
        guard,
        headers: { authorization: `Bearer ${apiKey}` },
        json: {
          personalizations: [{ to: [{ email: message.to }] }],
          from: {
            email: from,
            ...(optional(credentials, 'senderName') ? { name: optional(credentials, 'senderName') } : {}),
          },
          subject: message.subject,
          content,
          ...(optional(credentials, 'ipPoolName') ? { ip_pool_name: optional(credentials, 'ipPoolName') } : {}),
        },
      },
      options,
    );
    return { id: answer.headers.get('x-message-id') ?? newId(), date: new Date().toISOString() };
  }
}
