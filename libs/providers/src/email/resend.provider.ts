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

/** Resend (POST /emails, Bearer API key); answers the email id. */
export class ResendProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'resend';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, from } = required(credentials, this.providerId, ['apiKey', 'from']);
    const { base, guard } = apiBase(credentials, 'https://api.resend.com');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Resend',
          url: `${base}/emails`,
          guard,
          headers: { authorization: `Bearer ${apiKey}` },
          json: {
            from: mailbox(from, optional(credentials, 'senderName')),
            to: recipientsOf(message),
            ...(message.cc?.length ? { cc: message.cc } : {}),
            ...(message.bcc?.length ? { bcc: message.bcc } : {}),
            ...(message.replyTo ? { reply_to: message.replyTo } : {}),
            subject: message.subject,
            ...(message.html ? { html: message.html } : {}),
            ...(message.text ? { text: message.text } : {}),
          },
        },
        message.overrides,
      ),
      options,
    );
    return { id: (answer.data as { id?: string } | undefined)?.id ?? '', date: new Date().toISOString() };
  }
}
