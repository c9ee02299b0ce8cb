import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SesProvider } from '../email/ses.provider.js';
import type { EmailMessage, ProviderAdapter, ProviderMessage, PushMessage, SmsMessage } from '../provider.js';
import { PusherBeamsProvider } from '../push/pusher-beams.provider.js';
import { SnsProvider } from '../sms/sns.provider.js';
import { failureOf } from '../testing/failure.test.js';
import { sendOptions } from '../testing/local-receiver.test.js';
import { AWS_REGION, credentialFormatErrors } from './credential-formats.js';

const email: EmailMessage = { channel: 'email', to: 'ada@example.com', subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' };
const sms: SmsMessage = { channel: 'sms', to: '+15550001111', content: 'Hi' };
const push: PushMessage = {
  channel: 'push',
  deviceToken: 'user-1',
  title: 'Hi',
  content: 'Hi',
  payload: {},
  subscriberId: 'ada',
  transactionId: 'tx-1',
};

describe('credentials that become part of an API host', () => {
  it.each([
    'us-east-1',
    'eu-central-2',
    'us-gov-west-1',
    'ap-southeast-5',
    'cn-north-1',
    'il-central-1',
    'us-isob-east-1',
  ])('%s is an AWS region', (region) => {
    expect(AWS_REGION.test(region)).toBe(true);
    expect(credentialFormatErrors('ses', { region })).toEqual({});
  });

  it.each([
    'evil.test:8443/#',
    'x@127.0.0.1:9/#',
    'us-east-1.evil.test',
    'us-east-1/',
    'us-east-1#',
    'US-EAST-1',
    'us-east',
    'useast1',
    'us-east-1 x',
  ])('%j is not an AWS region', (region) => {
    expect(credentialFormatErrors('ses', { region })).toEqual({
      region: 'region must be an AWS region such as us-east-1',
    });
    expect(credentialFormatErrors('sns', { region })).toEqual({
      region: 'region must be an AWS region such as us-east-1',
    });
  });

  it('checks only the providers that put the field in a host, and only when it is given', () => {
    expect(credentialFormatErrors('sendgrid', { region: 'eu' })).toEqual({});
    expect(credentialFormatErrors('ses', {})).toEqual({});
    expect(credentialFormatErrors('ses', { region: '' })).toEqual({});
    expect(credentialFormatErrors('ses', { region: ' eu-west-1 ' })).toEqual({});
    expect(credentialFormatErrors('ses', { region: 5 })).toEqual({
      region: 'region must be an AWS region such as us-east-1',
    });
    expect(credentialFormatErrors('pusher-beams', { instanceId: '8f9a6e22-2483-49aa-8552-125f1a4c5781' })).toEqual({});
    for (const instanceId of ['evil.test', 'a@b', 'x/y', '-x', 'x'.repeat(64)]) {
      expect(credentialFormatErrors('pusher-beams', { instanceId })).toEqual({
        instanceId: 'instanceId must be a Pusher Beams instance id (letters, digits and dashes)',
      });
    }
  });
});

describe('the providers refuse such a credential before building a URL', () => {
  // fetch is replaced for these tests: it records where each request would go and answers 200.
  const requested: string[] = [];
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    requested.length = 0;
    globalThis.fetch = (input: string | URL | Request) => {
      requested.push(String(input instanceof Request ? input.url : input));
      return Promise.resolve(
        new Response('{"MessageId":"m-1"}', { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    };
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const aws = { apiKey: 'AKIDTEST', secretKey: 'aws-secret', from: 'no-reply@acme.test' };

  it.each<[string, () => ProviderAdapter, ProviderMessage, Record<string, unknown>, RegExp]>([
    // https://email.${region}.amazonaws.com would be https://email.evil.test:8443/#.amazonaws.com
    ['ses', () => new SesProvider(), email, { ...aws, region: 'evil.test:8443/#' }, /region must be an AWS region/],
    ['ses', () => new SesProvider(), email, { ...aws, region: 'us-east-1.evil.test?' }, /region must be an AWS region/],
    ['sns', () => new SnsProvider(), sms, { ...aws, region: 'evil.test:8443/#' }, /region must be an AWS region/],
    [
      'pusher-beams',
      () => new PusherBeamsProvider(),
      push,
      { instanceId: 'evil.test', secretKey: 'beams-secret' },
      /instanceId must be a Pusher Beams instance id/,
    ],
    [
      'pusher-beams',
      () => new PusherBeamsProvider(),
      push,
      { instanceId: 'x@127.0.0.1', secretKey: 'beams-secret' },
      /instanceId must be a Pusher Beams instance id/,
    ],
  ])(
    '%s: a configuration error, not retried, and no request is made',
    async (_providerId, provider, message, credentials, text) => {
      const error = await failureOf(provider().send(message, credentials, sendOptions));
      expect(requested).toEqual([]);
      expect(error).toMatchObject({
        name: 'ProviderError',
        retryable: false,
        kind: 'credentials',
        message: expect.stringMatching(text),
      });
      expect(error.message).not.toContain('aws-secret');
    },
  );

  it('a valid region builds the AWS origin from it', async () => {
    await new SesProvider().send(email, { ...aws, region: 'eu-west-1' }, sendOptions);
    await new SnsProvider().send(sms, { ...aws, region: ' us-gov-west-1 ' }, sendOptions).catch(() => undefined);
    expect(requested).toEqual([
      'https://email.eu-west-1.amazonaws.com/v2/email/outbound-emails',
      'https://sns.us-gov-west-1.amazonaws.com/',
    ]);
  });
});
