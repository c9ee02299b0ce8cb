import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SubscriberRepository } from '#dal';
import { detailsOf, messagesOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { startProviderReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'SG.very-secret-api-key';
const EMAIL_STEP = { type: 'email', subject: 'Order {{payload.order}}', content: 'Order {{payload.order}} shipped' };

type Body = Record<string, unknown>;

/** A fresh environment with the given integrations, a one-step workflow and a subscriber (Ada). */
async function environment(t: TestApp, setup: { integrations: Body[]; step: Body; channelCredentials?: Body }) {
  const { apiKey, environment } = await t.createForeignKey();
  const integrations: Body[] = [];
  for (const integration of setup.integrations) {
    const res = await t.api('post', '/v1/integrations', apiKey).send(integration);
    expect(res.status).toBe(201);
    integrations.push(res.body);
  }
  const identifier = 'delivery-check';
  expect(
    (
      await t
        .api('post', '/v1/workflows', apiKey)
        .send({ name: identifier, identifier, steps: [{ template: setup.step }] })
    ).status,
  ).toBe(201);
  expect(
    (
      await t
        .api('post', '/v2/subscribers', apiKey)
        .send({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com', phone: '+15550001111' })
    ).status,
  ).toBe(201);
  if (setup.channelCredentials) {
    const patched = await t.api('patch', '/v1/subscribers/ada/credentials', apiKey).send(setup.channelCredentials);
    expect(patched.status).toBe(200);
  }
  const trigger = async () => {
    const { transactionId, jobs } = await triggerWithKeyAndSettle(t, apiKey, {
      name: identifier,
      to: 'ada',
      payload: { order: 'A-17' },
    });
    return { job: jobs[0], details: await detailsOf(t, jobs[0].id), messages: await messagesOf(t, transactionId) };
  };
  return { apiKey, environment, integrations, trigger };
}

const sendgrid = (receiver: ProviderReceiver, path = '', identifier = 'sendgrid-main') => ({
  providerId: 'sendgrid',
  channel: 'email',
  identifier,
  credentials: { apiKey: SECRET, from: 'no-reply@acme.test', baseUrl: `${receiver.url}${path}` },
});

/** A provider error that echoes the key back, as some APIs do: it must be redacted everywhere. */
const echo = (status: number) => ({ status, body: { errors: [{ message: `key ${SECRET} is throttled` }] } });

describe('delivery failures: retries, exhaustion, failover, signatures, dead tokens', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    t = await startTestApp({
      env: { PROVIDER_MAX_ATTEMPTS: '3', PROVIDER_TIMEOUT_MS: '2000', PROVIDER_BACKOFF_MS: '20' },
    });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  const since = (before: number) => receiver.requests.slice(before);

  it('a retryable failure (503) is retried with backoff, then succeeds; every attempt is a detail, retries flagged', async () => {
    const env = await environment(t, { integrations: [sendgrid(receiver, '/retry')], step: EMAIL_STEP });
    const before = receiver.requests.length;
    receiver.queue.push(echo(503), echo(429));
    const { job, details, messages } = await env.trigger();
    expect(since(before).map((request) => request.path)).toEqual(Array(3).fill('/retry/v3/mail/send'));
    expect(job.status).toBe('completed');
    expect(messages[0]).toMatchObject({ status: 'sent', providerId: 'sendgrid', errorText: null });
    const attempts = details.filter((detail) => detail.providerId === 'sendgrid');
    expect(attempts.map((detail) => [detail.status, detail.isRetry, detail.source])).toEqual([
      ['Failed', false, 'Internal'],
      ['Failed', true, 'Internal'],
      ['Success', true, 'Internal'],
    ]);
    expect(attempts[0].detail).toMatch(
      /^Attempt 1 of 3 through sendgrid-main failed: SendGrid answered HTTP 503.*; retrying in \d+ ms$/,
    );
    expect(attempts[2].detail).toBe('Message sent through integration sendgrid-main (sendgrid) on attempt 3');
    expect(JSON.stringify(details)).not.toContain(SECRET);
  });

  it('retries exhausted: the message is an error with errorText, the job failed, no secret anywhere', async () => {
    const env = await environment(t, { integrations: [sendgrid(receiver, '/exhaust')], step: EMAIL_STEP });
    const before = receiver.requests.length;
    receiver.queue.push(echo(500), echo(502), echo(503));
    const { job, details, messages } = await env.trigger();
    expect(since(before)).toHaveLength(3);
    expect(job.status).toBe('failed');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      status: 'error',
      errorText: expect.stringMatching(/^Sending through integration sendgrid-main failed: SendGrid answered HTTP 503/),
    });
    const failed = details.filter((detail) => detail.status === 'Failed');
    expect(failed.map((detail) => detail.isRetry)).toEqual([false, true, true]);
    expect(failed[2].detail).not.toContain('retrying');
    expect(JSON.stringify([details, messages, job.error])).not.toContain(SECRET);
    expect(JSON.stringify([details, messages])).toContain('[redacted]');
  });

  it('a non-retryable answer (400) is tried once; a refused key (401) is a Credentials failure', async () => {
    const env = await environment(t, { integrations: [sendgrid(receiver, '/bad')], step: EMAIL_STEP });
    let before = receiver.requests.length;
    receiver.queue.push(echo(400));
    let outcome = await env.trigger();
    expect(since(before)).toHaveLength(1);
    expect(outcome.job.status).toBe('failed');
    expect(outcome.details.filter((detail) => detail.status === 'Failed').map((detail) => detail.source)).toEqual([
      'Internal',
    ]);
    before = receiver.requests.length;
    receiver.queue.push(echo(401));
    outcome = await env.trigger();
    expect(since(before)).toHaveLength(1);
    expect(outcome.details.filter((detail) => detail.status === 'Failed').map((detail) => detail.source)).toEqual([
      'Credentials',
    ]);
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
  });

  it('failover: the primary email integration fails after its retries, the second one delivers and is named', async () => {
    const env = await environment(t, {
      integrations: [
        sendgrid(receiver, '/down', 'primary-sendgrid'),
        {
          providerId: 'resend',
          channel: 'email',
          identifier: 'backup-resend',
          credentials: { apiKey: 're_backup_secret', from: 'no-reply@acme.test', baseUrl: `${receiver.url}/up` },
        },
      ],
      step: EMAIL_STEP,
    });
    expect(env.integrations.map((integration) => integration.primary)).toEqual([true, false]);
    const before = receiver.requests.length;
    receiver.queue.push(echo(503), echo(503), echo(503));
    const { job, details, messages } = await env.trigger();
    expect(since(before).map((request) => request.path)).toEqual([
      '/down/v3/mail/send',
      '/down/v3/mail/send',
      '/down/v3/mail/send',
      '/up/emails',
    ]);
    expect(since(before)[3].json).toMatchObject({ to: ['ada@example.com'], subject: 'Order A-17' });
    expect(job).toMatchObject({ status: 'completed', providerId: 'resend' });
    expect(messages[0]).toMatchObject({ status: 'sent', providerId: 'resend' });
    expect(details.map((detail) => [detail.status, detail.providerId, detail.isRetry])).toEqual([
      ['Failed', 'sendgrid', false],
      ['Failed', 'sendgrid', true],
      ['Failed', 'sendgrid', true],
      ['Pending', 'resend', false],
      ['Success', 'resend', false],
    ]);
    expect(details[3].detail).toBe('Failing over to integration backup-resend (resend)');
    expect(details[4].detail).toBe('Message sent through integration backup-resend (resend)');
    expect(JSON.stringify(details)).not.toMatch(/SG\.very-secret|re_backup_secret/);
  });

  it('chat-webhook signature verifies as docs/providers.md describes, not after 5 minutes; no header without a secret', async () => {
    const secretKey = 'whsec-chat-e2e';
    const env = await environment(t, {
      integrations: [
        { providerId: 'chat-webhook', channel: 'chat', identifier: 'signed-hook', credentials: { secretKey } },
      ],
      step: { type: 'chat', content: 'Order {{payload.order}} shipped' },
      channelCredentials: { providerId: 'chat-webhook', credentials: { webhookUrl: `${receiver.url}/signed` } },
    });
    const before = receiver.requests.length;
    const { job } = await env.trigger();
    expect(job.status).toBe('completed');
    const [request] = since(before);
    // The verification of docs/providers.md, with the receiver's clock as a parameter.
    const verify = (header: string | string[] | undefined, rawBody: string, nowSeconds = Date.now() / 1000) => {
      const parts = Object.fromEntries(
        String(header ?? '')
          .split(',')
          .map((part) => part.split('=', 2)),
      );
      const timestamp = Number(parts.t);
      if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
      const expected = createHmac('sha256', secretKey).update(`${parts.t}.${rawBody}`).digest('hex');
      const received = Buffer.from(parts.v1 ?? '');
      return received.length === expected.length && timingSafeEqual(received, Buffer.from(expected));
    };
    const header = request.headers['x-novu-signature'];
    expect(verify(header, request.body)).toBe(true);
    expect(verify(header, request.body.replace('A-17', 'A-18'))).toBe(false);
    // Captured and replayed six minutes later: refused.
    expect(verify(header, request.body, Date.now() / 1000 + 360)).toBe(false);

    const unsigned = await environment(t, {
      integrations: [{ providerId: 'chat-webhook', channel: 'chat', credentials: {} }],
      step: { type: 'chat', content: 'Order {{payload.order}} shipped' },
      channelCredentials: { providerId: 'chat-webhook', credentials: { webhookUrl: `${receiver.url}/unsigned` } },
    });
    const mark = receiver.requests.length;
    await unsigned.trigger();
    expect(since(mark)[0].headers['x-novu-signature']).toBeUndefined();
  });

  it('a push token the provider calls dead is removed from the subscriber; the other token still gets its push', async () => {
    const env = await environment(t, {
      integrations: [
        {
          providerId: 'expo',
          channel: 'push',
          identifier: 'expo-main',
          credentials: { apiKey: 'expo-secret', baseUrl: receiver.url },
        },
      ],
      step: { type: 'push', title: 'Order {{payload.order}}', content: 'Shipped' },
      channelCredentials: {
        providerId: 'expo',
        credentials: { deviceTokens: ['ExponentPushToken[alive]', 'ExponentPushToken[dead-one]'] },
      },
    });
    receiver.answer = (request) =>
      request.path !== '/--/api/v2/push/send'
        ? undefined
        : request.json.to === 'ExponentPushToken[dead-one]'
          ? {
              body: {
                data: {
                  status: 'error',
                  message: 'not a registered push notification recipient',
                  details: { error: 'DeviceNotRegistered' },
                },
              },
            }
          : { body: { data: { status: 'ok', id: 'ticket-ok' } } };
    const subscribers = t.app.get(SubscriberRepository);
    const versionBefore = (await subscribers.findBySubscriberId(env.environment.id, 'ada'))!.version;
    const before = receiver.requests.length;
    const { job, details, messages } = await env.trigger();
    expect(since(before).map((request) => request.json.to)).toEqual([
      'ExponentPushToken[alive]',
      'ExponentPushToken[dead-one]',
    ]);
    expect(job.status).toBe('completed');
    expect(messages.map((message) => [message.deviceTokens, message.status])).toEqual([
      [['ExponentPushToken[alive]'], 'sent'],
      [['ExponentPushToken[dead-one]'], 'error'],
    ]);
    expect(details).toContainEqual(
      expect.objectContaining({
        status: 'Warning',
        source: 'Credentials',
        detail: expect.stringMatching(
          /rejected by expo-main as invalid or expired and was removed from the subscriber$/,
        ),
      }),
    );
    const after = (await subscribers.findBySubscriberId(env.environment.id, 'ada'))!;
    expect(after.channels.find((entry) => entry.providerId === 'expo')!.credentials.deviceTokens).toEqual([
      'ExponentPushToken[alive]',
    ]);
    expect(after.version).toBe(versionBefore + 1);
    const api = await t.api('get', '/v2/subscribers/ada', env.apiKey);
    expect(api.status).toBe(200);
    expect(api.body.channels[0].credentials.deviceTokens).toEqual(['ExponentPushToken[alive]']);
    expect(JSON.stringify(details)).not.toContain('expo-secret');
  });
});

describe('SSRF guard with ALLOW_PRIVATE_WEBHOOK_TARGETS=false', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false',
        PROVIDER_MAX_ATTEMPTS: '3',
        PROVIDER_TIMEOUT_MS: '2000',
        PROVIDER_BACKOFF_MS: '20',
      },
    });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it.each([
    ['loopback', () => `${receiver.url}/services/T1/B1/ssrf-token-path`],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data/ssrf-token-path'],
    ['private network', () => 'http://10.1.2.3/hooks/ssrf-token-path'],
  ])(
    'a subscriber webhook on a %s address is refused once, with a clear detail and no URL in any text',
    async (_kind, url) => {
      const { apiKey } = await t.createForeignKey();
      expect(
        (
          await t
            .api('post', '/v1/integrations', apiKey)
            .send({ providerId: 'slack', channel: 'chat', credentials: {} })
        ).status,
      ).toBe(201);
      expect(
        (
          await t
            .api('post', '/v1/workflows', apiKey)
            .send({ name: 'ssrf', identifier: 'ssrf', steps: [{ template: { type: 'chat', content: 'hello' } }] })
        ).status,
      ).toBe(201);
      expect((await t.api('post', '/v2/subscribers', apiKey).send({ subscriberId: 'mallory' })).status).toBe(201);
      expect(
        (
          await t
            .api('patch', '/v1/subscribers/mallory/credentials', apiKey)
            .send({ providerId: 'slack', credentials: { webhookUrl: url() } })
        ).status,
      ).toBe(200);
      const before = receiver.requests.length;
      const { transactionId, jobs } = await triggerWithKeyAndSettle(t, apiKey, {
        name: 'ssrf',
        to: 'mallory',
        payload: {},
      });
      expect(receiver.requests.length).toBe(before);
      expect(jobs[0].status).toBe('failed');
      const details = await detailsOf(t, jobs[0].id);
      const failed = details.filter((detail) => detail.status === 'Failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ source: 'Webhook', providerId: 'slack', isRetry: false });
      expect(failed[0].detail).toContain(
        'Webhook URL refused: it resolves to a loopback, private, link-local or metadata address',
      );
      const messages = await messagesOf(t, transactionId);
      expect(messages[0]).toMatchObject({ status: 'error', errorText: expect.stringContaining('Webhook URL refused') });
      expect(JSON.stringify([details, messages[0].errorText, jobs[0].error])).not.toMatch(
        /ssrf-token-path|169\.254|10\.1\.2\.3|127\.0\.0\.1/,
      );
    },
  );
});
