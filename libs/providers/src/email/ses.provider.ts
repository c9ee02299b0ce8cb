import { awsCredentials, awsSecrets, AWS_RETRYABLE_CODES, signAwsRequest } from '../auth/aws-sigv4.js';
import { assertHostCredentials } from '../http/credential-formats.js';
import { apiBase, mailbox, optional } from '../http/credentials.js';
import { httpFailure, providerRequest } from '../http/provider-request.js';
import {
  ProviderError,
  recipientsOf,
  type EmailMessage,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/**
 * Amazon SES v2 SendEmail (POST /v2/email/outbound-emails, JSON, SigV4 for service `ses`).
 * Credentials: accessKey (or apiKey) = access key id, secretKey, sessionToken (temporary credentials only),
 * region, from, senderName.
 */
export class SesProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'ses';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    assertHostCredentials(this.providerId, credentials);
    const { keys, region } = awsCredentials(credentials);
    const from = optional(credentials, 'from');
    if (!keys || !region || !from)
      throw new ProviderError(
        'The ses integration needs accessKey (or apiKey), secretKey, region and from',
        false,
        undefined,
        'credentials',
      );
    const { base, guard } = apiBase(credentials, `https://email.${region}.amazonaws.com`);
    const url = new URL(`${base}/v2/email/outbound-emails`);
    const body = JSON.stringify({
      FromEmailAddress: mailbox(from, optional(credentials, 'senderName')),
      Destination: {
        ToAddresses: recipientsOf(message),
        ...(message.cc?.length ? { CcAddresses: message.cc } : {}),
        ...(message.bcc?.length ? { BccAddresses: message.bcc } : {}),
      },
      ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: {
            ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
            ...(message.text ? { Text: { Data: message.text, Charset: 'UTF-8' } } : {}),
          },
        },
      },
    });
    const headers = signAwsRequest({ url, service: 'ses', region, keys, contentType: 'application/json', body });
    const call = {
      provider: 'Amazon SES',
      url: url.toString(),
      guard,
      headers,
      body,
      secrets: awsSecrets(keys),
    };
    const answer = await providerRequest(call, options);
    if (!answer.ok) {
      const code = (answer.headers.get('x-amzn-errortype') ?? '').split(':')[0];
      throw httpFailure(call, answer, undefined, AWS_RETRYABLE_CODES.has(code) || undefined);
    }
    return { id: (answer.data as { MessageId?: string } | undefined)?.MessageId ?? '', date: new Date().toISOString() };
  }
}
