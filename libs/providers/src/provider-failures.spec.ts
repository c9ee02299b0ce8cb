import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import type {
  ChatMessage,
  EmailMessage,
  ProviderAdapter,
  ProviderMessage,
  PushMessage,
  SmsMessage,
} from './provider.js';
import { ProviderRegistry } from './provider-registry.js';
import { failureOf } from './testing/failure.test.js';
import { sendOptions, startReceiver, type Receiver } from './testing/local-receiver.test.js';

const SECRET = 'sekr3t-Value-0001';
const email: EmailMessage = { channel: 'email', to: 'ada@example.com', subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' };
const sms: SmsMessage = { channel: 'sms', to: '+15550001111', content: 'Hi' };
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;

interface Case {
  providerId: string;
  /** The secret echoed back in error answers (SECRET unless the provider's secret is something else). */
  secret?: string;
  message: (url: string) => ProviderMessage;
  credentials: (url: string) => Record<string, unknown>;
}

const chat =
  (path: string, extra: Partial<ChatMessage> = {}) =>
  (url: string): ChatMessage => ({
    channel: 'chat',
    webhookUrl: `${url}${path}`,
    content: 'Hi',
    payload: {},
    subscriberId: 's',
    transactionId: 't',
    ...extra,
  });
const push = (): PushMessage => ({
  channel: 'push',
  deviceToken: 'tok',
  title: 'Hi',
  content: 'Hi',
  payload: {},
  subscriberId: 's',
  transactionId: 't',
});
const withBase = (fields: Record<string, unknown>) => (url: string) => ({ ...fields, baseUrl: url });

/** Every HTTP adapter, configured with SECRET as its secret (or with it in the webhook path). */
const CASES: Case[] = [
  { providerId: 'sendgrid', message: () => email, credentials: withBase({ apiKey: SECRET, from: 'a@acme.test' }) },
  {
    providerId: 'mailgun',
    message: () => email,
    credentials: withBase({ apiKey: SECRET, domain: 'acme.test', from: 'a@acme.test' }),
  },
  { providerId: 'postmark', message: () => email, credentials: withBase({ apiKey: SECRET, from: 'a@acme.test' }) },
  { providerId: 'resend', message: () => email, credentials: withBase({ apiKey: SECRET, from: 'a@acme.test' }) },
  {
    providerId: 'ses',
    message: () => email,
    credentials: withBase({ apiKey: 'AKID', secretKey: SECRET, region: 'us-east-1', from: 'a@acme.test' }),
  },
  {
    providerId: 'twilio',
    message: () => sms,
    credentials: withBase({ accountSid: 'AC1', token: SECRET, from: '+1555' }),
  },
  { providerId: 'vonage', message: () => sms, credentials: withBase({ apiKey: 'k', secretKey: SECRET, from: 'Acme' }) },
  { providerId: 'nexmo', message: () => sms, credentials: withBase({ apiKey: 'k', secretKey: SECRET, from: 'Acme' }) },
  {
    providerId: 'plivo',
    message: () => sms,
    credentials: withBase({ accountSid: 'MA1', token: SECRET, from: '+1555' }),
  },
  {
    providerId: 'sns',
    message: () => sms,
    credentials: withBase({ apiKey: 'AKID', secretKey: SECRET, region: 'us-east-1' }),
  },
  {
    providerId: 'sms-webhook',
    message: () => sms,
    credentials: (url) => ({ webhookUrl: `${url}/sms`, secretKey: SECRET }),
  },
  { providerId: 'slack', message: chat(`/services/${SECRET}`), credentials: () => ({}) },
  { providerId: 'service-slack', message: chat(`/services/${SECRET}`), credentials: () => ({}) },
  { providerId: 'discord', message: chat(`/api/webhooks/1/${SECRET}`), credentials: () => ({}) },
  { providerId: 'msteams', message: chat(`/webhookb2/${SECRET}`), credentials: () => ({}) },
  { providerId: 'mattermost', message: chat(`/hooks/${SECRET}`), credentials: () => ({}) },
  { providerId: 'ryver', message: chat(`/application/webhook/${SECRET}`), credentials: () => ({}) },
  { providerId: 'zulip', message: chat(`/api/v1/external/slack_incoming?api_key=${SECRET}`), credentials: () => ({}) },
  {
    providerId: 'grafana-on-call',
    message: chat(`/integrations/v1/formatted_webhook/${SECRET}/`),
    credentials: () => ({}),
  },
  {
    providerId: 'rocket-chat',
    message: chat('', { channelCredentials: { channel: 'ROOM' } }),
    credentials: () => ({ token: SECRET, user: 'u1' }),
  },
  { providerId: 'getstream', message: chat('/hook'), credentials: () => ({ apiKey: SECRET }) },
  {
    providerId: 'whatsapp-business',
    message: chat('', { phone: '+1555' }),
    credentials: withBase({ apiToken: SECRET, phoneNumberIdentification: '1055' }),
  },
  {
    providerId: 'fcm',
    secret: rsaKey,
    message: push,
    credentials: (url) => ({
      baseUrl: url,
      serviceAccount: JSON.stringify({
        project_id: 'p',
        client_email: 'e@p.test',
        private_key: rsaKey,
        token_uri: `${url}/token`,
      }),
    }),
  },
  { providerId: 'expo', message: push, credentials: withBase({ apiKey: SECRET }) },
  { providerId: 'one-signal', message: push, credentials: withBase({ apiKey: SECRET, applicationId: 'app' }) },
  { providerId: 'pushpad', message: push, credentials: withBase({ apiKey: SECRET, applicationId: '1' }) },
  { providerId: 'pusher-beams', message: push, credentials: withBase({ instanceId: 'i', secretKey: SECRET }) },
  { providerId: 'appio', message: push, credentials: withBase({ apiKey: SECRET }) },
];

describe('failure classification of every HTTP provider', () => {
  const registry = new ProviderRegistry();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  async function failure(testCase: Case, reply: Parameters<Receiver['replies']['push']>[0], options = sendOptions) {
    receiver.replies.length = 0;
    receiver.replies.push(reply);
    const adapter = registry.get(testCase.providerId) as ProviderAdapter;
    const error = await adapter.send(testCase.message(receiver.url), testCase.credentials(receiver.url), options).then(
      () => undefined,
      (thrown: unknown) => thrown as { name: string; message: string; raw?: string; retryable: boolean },
    );
    expect(error?.name).toMatch(/ProviderError$/);
    expect(`${error!.message} ${error!.raw ?? ''}`).not.toContain(testCase.secret ?? SECRET);
    return error!;
  }

  it('covers every registered adapter but the SMTP, APNs and generic webhook ones (tested in their own specs)', () => {
    for (const testCase of CASES) expect(registry.get(testCase.providerId)?.providerId).toBe(testCase.providerId);
  });

  it.each(CASES)('$providerId: 429 and 500 are retryable, 400 is not, and the secret never shows', async (testCase) => {
    const secret = testCase.secret ?? SECRET;
    const echo = { message: `bad credentials ${secret}`, error: { message: `bad credentials ${secret}` } };
    expect((await failure(testCase, { status: 429, body: echo })).retryable).toBe(true);
    expect((await failure(testCase, { status: 503, body: echo })).retryable).toBe(true);
    const refused = await failure(testCase, { status: 400, body: echo });
    expect(refused.retryable).toBe(false);
    expect(refused.message).toMatch(/HTTP 400/);
  });

  it.each(CASES)('$providerId: a timeout is retryable', async (testCase) => {
    const error = await failure(testCase, { status: 200, body: {}, delayMs: 500 }, { ...sendOptions, timeoutMs: 100 });
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('timed out after 100 ms') });
  });

  it.each(CASES)(
    '$providerId: an answer of 1 GB fails the call after its first MB, the rest is never read',
    async (testCase) => {
      const before = receiver.streamedBytes;
      const error = await failure(
        testCase,
        { status: 200, streamBytes: 1024 ** 3 },
        { ...sendOptions, timeoutMs: 30_000 },
      );
      expect(error).toMatchObject({
        retryable: false,
        message: expect.stringContaining('with a body larger than 1 MB'),
      });
      // The client stopped reading: what the receiver could hand over is the cap plus socket buffers.
      expect(receiver.streamedBytes - before).toBeLessThan(16 * 1024 ** 2);
    },
  );

  it('a declared Content-Length beyond the cap is refused before reading; a 5xx stays retryable', async () => {
    const sendgrid = CASES.find((testCase) => testCase.providerId === 'sendgrid')!;
    const before = receiver.streamedBytes;
    const declared = await failure(
      sendgrid,
      { status: 200, streamBytes: 1024 ** 3, declareLength: true },
      { ...sendOptions, timeoutMs: 30_000 },
    );
    expect(declared.message).toBe('SendGrid answered HTTP 200 with a body larger than 1 MB; the call counts as failed');
    expect(receiver.streamedBytes - before).toBeLessThan(16 * 1024 ** 2);
    const overloaded = await failure(sendgrid, { status: 503, streamBytes: 2 * 1024 ** 2 });
    expect(overloaded).toMatchObject({
      retryable: true,
      message: expect.stringContaining('HTTP 503 with a body larger than 1 MB'),
    });
  });

  it.each(CASES)('$providerId: a refused connection is retryable', async (testCase) => {
    const adapter = registry.get(testCase.providerId) as ProviderAdapter;
    const closed = 'http://127.0.0.1:1';
    const error = await failureOf(adapter.send(testCase.message(closed), testCase.credentials(closed), sendOptions));
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).not.toContain(SECRET);
  });
});
