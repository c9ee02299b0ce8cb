import { newId } from '#common';
import { apiBase, optional, required } from '../http/credentials.js';
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
    const emails = (addresses: string[] | undefined) => addresses?.map((email) => ({ email }));
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'SendGrid',
          url: `${base}/v3/mail/send`,
          guard,
          headers: { authorization: `Bearer ${apiKey}` },
          json: {
            personalizations: [
              {
                to: emails(recipientsOf(message)),
                ...(message.cc?.length ? { cc: emails(message.cc) } : {}),
                ...(message.bcc?.length ? { bcc: emails(message.bcc) } : {}),
              },
            ],
            ...(message.replyTo ? { reply_to: { email: message.replyTo } } : {}),
            from: {
              email: from,
              ...(optional(credentials, 'senderName') ? { name: optional(credentials, 'senderName') } : {}),
            },
            subject: message.subject,
            content,
            ...(optional(credentials, 'ipPoolName') ? { ip_pool_name: optional(credentials, 'ipPoolName') } : {}),
          },
        },
        message.overrides,
      ),
      options,
    );
    return { id: answer.headers.get('x-message-id') ?? newId(), date: new Date().toISOString() };
  }
}
