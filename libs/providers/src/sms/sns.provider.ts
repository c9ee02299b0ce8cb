import { awsCredentials, awsSecrets, AWS_RETRYABLE_CODES, signAwsRequest } from '../auth/aws-sigv4.js';
import { assertHostCredentials } from '../http/credential-formats.js';
import { apiBase, optional } from '../http/credentials.js';
import { httpFailure, providerRequest } from '../http/provider-request.js';
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
  type SmsMessage,
} from '../provider.js';

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

/**
 * Amazon SNS Publish to a phone number (AWS query API: form-encoded POST to /, Action=Publish,
 * SigV4 for service `sns`; the answer is XML). `senderId` sets the AWS.SNS.SMS.SenderID attribute;
 * `sessionToken` goes with temporary credentials.
 */
export class SnsProvider implements ProviderAdapter<SmsMessage> {
  readonly providerId = 'sns';
  readonly channel = 'sms' as const;

  async send(message: SmsMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    assertHostCredentials(this.providerId, credentials);
    const { keys, region } = awsCredentials(credentials);
    if (!keys || !region)
      throw new ProviderError(
        'The sns integration needs accessKey (or apiKey), secretKey and region',
        false,
        undefined,
        'credentials',
      );
    const { base, guard } = apiBase(credentials, `https://sns.${region}.amazonaws.com`);
    const url = new URL(`${base}/`);
    const form = new URLSearchParams({
      Action: 'Publish',
      Version: '2010-03-31',
      PhoneNumber: message.to,
      Message: message.content,
    });
    const senderId = optional(credentials, 'senderId');
    if (senderId) {
      form.set('MessageAttributes.entry.1.Name', 'AWS.SNS.SMS.SenderID');
      form.set('MessageAttributes.entry.1.Value.DataType', 'String');
      form.set('MessageAttributes.entry.1.Value.StringValue', senderId);
    }
    const body = form.toString();
    const headers = signAwsRequest({
      url,
      service: 'sns',
      region,
      keys,
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
      body,
    });
    const call = {
      provider: 'Amazon SNS',
      url: url.toString(),
      guard,
      headers,
      body,
      secrets: awsSecrets(keys),
    };
    const answer = await providerRequest(call, options);
    if (!answer.ok) {
      const code = tag(answer.text, 'Code') ?? '';
      throw httpFailure(
        call,
        answer,
        [code, tag(answer.text, 'Message')].filter(Boolean).join(': ') || undefined,
        AWS_RETRYABLE_CODES.has(code) || undefined,
      );
    }
    return { id: tag(answer.text, 'MessageId') ?? '', date: new Date().toISOString() };
  }
}
