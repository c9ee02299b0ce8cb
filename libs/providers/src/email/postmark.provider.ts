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

/** Postmark (POST /email with the X-Postmark-Server-Token header); answers MessageID and SubmittedAt. */
export class PostmarkProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'postmark';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const { apiKey, from } = required(credentials, this.providerId, ['apiKey', 'from']);
    const { base, guard } = apiBase(credentials, 'https://api.postmarkapp.com');
    const answer = await providerSend(
      withOverrides(
        {
          provider: 'Postmark',
          url: `${base}/email`,
          guard,
          headers: { 'x-postmark-server-token': apiKey },
          json: {
            From: mailbox(from, optional(credentials, 'senderName')),
            To: recipientsOf(message).join(','),
            ...(message.cc?.length ? { Cc: message.cc.join(',') } : {}),
            ...(message.bcc?.length ? { Bcc: message.bcc.join(',') } : {}),
            ...(message.replyTo ? { ReplyTo: message.replyTo } : {}),
            Subject: message.subject,
            ...(message.html ? { HtmlBody: message.html } : {}),
            ...(message.text ? { TextBody: message.text } : {}),
            MessageStream: 'outbound',
          },
        },
        message.overrides,
      ),
      options,
    );
    const body = answer.data as { MessageID?: string; SubmittedAt?: string } | undefined;
    return { id: body?.MessageID ?? '', date: body?.SubmittedAt ?? new Date().toISOString() };
  }
}
