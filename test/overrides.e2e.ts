import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import { triggerEvents, type JobRow } from '#dal';
import { detailsOf, jobsOf, messagesOf } from './support/engine-fixtures.js';
import { createProviderEnvironment } from './support/provider-environment.js';
import {
  startProviderReceiver,
  startSmtpReceiver,
  type ProviderReceiver,
  type ProviderRequest,
  type ReceivedMail,
} from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

/**
 * Trigger overrides end to end: Novu's shapes sent through the API, and what the local SMTP server
 * and provider receivers got.
 */

const EMAIL_STEP = {
  name: 'welcome-email',
  template: { type: 'email', subject: 'Hello', content: '<p>Hi {{subscriber.firstName}}</p>' },
};
const PUSH_STEP = { template: { type: 'push', title: 'Order', content: 'Order {{payload.order}} shipped' } };
const fcmKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;

const answer = (request: ProviderRequest) =>
  request.path === '/token'
    ? { body: { access_token: 'ya29.override', expires_in: 3599, token_type: 'Bearer' } }
    : undefined;

describe('trigger overrides', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  let smtp: { port: number; mails: ReceivedMail[]; close(): Promise<void> };

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_MAX_ATTEMPTS: '1' } });
    receiver = await startProviderReceiver({ answer });
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function settle(apiKey: string, path: string, body: object, jobCount = 1) {
    const res = await t.api('post', path, apiKey).send(body);
    expect(res.status).toBe(201);
    const transactionIds: string[] = (Array.isArray(res.body) ? res.body : [res.body]).map(
      (item: { transactionId: string; status: string }) => {
        expect(item.status).toBe('processed');
        return item.transactionId;
      },
    );
    let jobs: JobRow[] = [];
    await waitFor(
      async () => {
        jobs = (await Promise.all(transactionIds.map((id) => jobsOf(t, id)))).flat();
        return jobs.length === jobCount && jobs.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));
      },
      { timeoutMs: 15_000, description: `${jobCount} jobs to settle` },
    );
    return { jobs, transactionIds };
  }

  /** A fresh environment with subscribers ada and bob and a one-step workflow `notify`. */
  async function environment(step: Record<string, unknown>) {
    const { apiKey, integration, sendgrid } = await createProviderEnvironment(t, receiver, {
      workflowIdentifier: 'notify',
      step,
      subscribers: ['ada', 'bob'].map((subscriberId) => ({
        subscriberId,
        firstName: subscriberId,
        email: `${subscriberId}@example.com`,
      })),
    });
    const trigger = async (body: Record<string, unknown>) => {
      const before = receiver.requests.length;
      const mailsBefore = smtp.mails.length;
      const { jobs, transactionIds } = await settle(apiKey, '/v1/events/trigger', {
        name: 'notify',
        to: 'ada',
        ...body,
      });
      return {
        job: jobs[0],
        details: (await detailsOf(t, jobs[0].id)).map((detail) => detail.detail),
        messages: await messagesOf(t, transactionIds[0]),
        requests: receiver.requests.slice(before),
        mails: smtp.mails.slice(mailsBefore),
      };
    };
    return { apiKey, integration, sendgrid, trigger };
  }

  const smtpCredentials = () => ({
    host: '127.0.0.1',
    port: String(smtp.port),
    ignoreTls: true,
    from: 'no-reply@acme.test',
    senderName: 'Acme',
  });

  it('overrides.email to, cc, bcc, replyTo, from and senderName reach the SMTP envelope and headers', async () => {
    const env = await environment(EMAIL_STEP);
    await env.integration({ providerId: 'nodemailer', channel: 'email', credentials: smtpCredentials() });
    const { job, mails } = await env.trigger({
      overrides: {
        email: {
          to: ['extra@example.com', 'ada@example.com'],
          cc: 'cc@example.com',
          bcc: ['hidden@example.com'],
          replyTo: 'support@acme.test',
          from: 'billing@acme.test',
          senderName: 'Acme Billing',
        },
      },
    });
    expect(job.status).toBe('completed');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.from).toBe('billing@acme.test');
    expect([...mail.to].sort()).toEqual(
      ['ada@example.com', 'cc@example.com', 'extra@example.com', 'hidden@example.com'].sort(),
    );
    expect(mail.raw).toMatch(/^To: ada@example\.com, extra@example\.com$/m);
    expect(mail.raw).toMatch(/^Cc: cc@example\.com$/m);
    expect(mail.raw).toMatch(/^Reply-To: support@acme\.test$/m);
    expect(mail.raw).toMatch(/^From: Acme Billing <billing@acme\.test>$/m);
    expect(mail.raw).not.toContain('hidden@example.com');
  });

  it('overrides.sms.to and overrides.email.to reach a subscriber who has no number or address of its own', async () => {
    const sms = await environment({ template: { type: 'sms', content: 'Code {{payload.code}}' } });
    await sms.integration({
      providerId: 'twilio',
      channel: 'sms',
      credentials: { accountSid: 'AC1', token: 'tw-token', from: '+15559990000', baseUrl: receiver.url },
    });
    const texted = await sms.trigger({ payload: { code: '42' }, overrides: { sms: { to: '+15550001111' } } });
    expect(texted.job.status).toBe('completed');
    expect(texted.requests).toHaveLength(1);
    expect(Object.fromEntries(texted.requests[0].form)).toMatchObject({ To: '+15550001111', Body: 'Code 42' });

    const email = await environment(EMAIL_STEP);
    await email.integration({ providerId: 'nodemailer', channel: 'email', credentials: smtpCredentials() });
    const mailed = await email.trigger({
      to: { subscriberId: 'no-address' },
      overrides: { email: { to: ['first@example.com', 'second@example.com'] } },
    });
    expect(mailed.job.status).toBe('completed');
    expect(mailed.mails).toHaveLength(1);
    expect(mailed.mails[0].raw).toMatch(/^To: first@example\.com, second@example\.com$/m);
  });

  it('a step override wins over the provider and channel overrides', async () => {
    const env = await environment(EMAIL_STEP);
    await env.integration({ providerId: 'nodemailer', channel: 'email', credentials: smtpCredentials() });
    const { mails } = await env.trigger({
      overrides: {
        email: { replyTo: 'channel@acme.test', senderName: 'Channel' },
        providers: { nodemailer: { replyTo: 'provider@acme.test' } },
        steps: { 'welcome-email': { providers: { nodemailer: { replyTo: 'step@acme.test' } } } },
      },
    });
    expect(mails[0].raw).toMatch(/^Reply-To: step@acme\.test$/m);
    expect(mails[0].raw).toMatch(/^From: Channel <no-reply@acme\.test>$/m);
  });

  it('overrides.email.integrationIdentifier picks that integration; another environment’s is not found', async () => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-main');
    await env.sendgrid('sg-picked');
    const picked = await env.trigger({ overrides: { email: { integrationIdentifier: 'sg-picked' } } });
    expect(picked.job.status).toBe('completed');
    expect(picked.requests.map((request) => request.path)).toEqual(['/sg-picked/v3/mail/send']);
    expect(picked.details).toContain(
      'Integration sg-picked (sendgrid) chosen: named by overrides.email.integrationIdentifier',
    );

    const other = await environment(EMAIL_STEP);
    await other.sendgrid('sg-elsewhere');
    const foreign = await env.trigger({ overrides: { email: { integrationIdentifier: 'sg-elsewhere' } } });
    expect(foreign.requests).toEqual([]);
    expect(foreign.job.status).toBe('failed');
    expect(foreign.details).toContain(
      'Integration sg-elsewhere named by overrides.email.integrationIdentifier is not an active email integration of this environment: not sent',
    );
  });

  it('provider fields and _passthrough body, headers and query reach the SendGrid receiver', async () => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-pass');
    const { job, requests } = await env.trigger({
      overrides: {
        email: { replyTo: 'support@acme.test', cc: ['cc@example.com'] },
        providers: {
          sendgrid: {
            categories: ['orders'],
            custom_args: { order: 'A-17' },
            _passthrough: {
              headers: { 'x-trace-id': 'trace-1', host: 'evil.test' },
              body: { tracking_settings: { click_tracking: { enable: false } } },
              query: { debug: 'yes' },
            },
          },
        },
        steps: { 'welcome-email': { providers: { sendgrid: { categories: ['step-wins'] } } } },
      },
    });
    expect(job.status).toBe('completed');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.path).toBe('/sg-pass/v3/mail/send?debug=yes');
    expect(request.headers['x-trace-id']).toBe('trace-1');
    expect(request.headers.host).toBe(new URL(receiver.url).host);
    expect(request.headers.authorization).toBe('Bearer SG.sg-pass');
    expect(request.json).toMatchObject({
      personalizations: [{ to: [{ email: 'ada@example.com' }], cc: [{ email: 'cc@example.com' }] }],
      reply_to: { email: 'support@acme.test' },
      categories: ['step-wins'],
      custom_args: { order: 'A-17' },
      tracking_settings: { click_tracking: { enable: false } },
      subject: 'Hello',
    });
  });

  it('overrides.fcm.data (the older top-level provider key) reaches the FCM receiver', async () => {
    const env = await environment(PUSH_STEP);
    await env.integration({
      providerId: 'fcm',
      channel: 'push',
      identifier: 'fcm-main',
      credentials: {
        serviceAccount: JSON.stringify({
          type: 'service_account',
          project_id: 'acme-app',
          client_email: 'sender@acme-app.iam.gserviceaccount.com',
          private_key: fcmKey,
          token_uri: `${receiver.url}/token`,
        }),
        baseUrl: receiver.url,
      },
    });
    expect(
      (
        await t
          .api('patch', '/v1/subscribers/ada/credentials', env.apiKey)
          .send({ providerId: 'fcm', credentials: { deviceTokens: ['device-1'] } })
      ).status,
    ).toBe(200);
    const { job, requests } = await env.trigger({
      payload: { order: 'A-17' },
      overrides: {
        fcm: { data: { deepLink: 'app://orders/A-17' }, android: { priority: 'high' } },
        push: { title: 'Shipped' },
      },
    });
    expect(job.status).toBe('completed');
    const send = requests.find((request) => request.path === '/v1/projects/acme-app/messages:send')!;
    expect(send.json.message).toEqual({
      token: 'device-1',
      notification: { title: 'Shipped', body: 'Order A-17 shipped' },
      data: { order: 'A-17', deepLink: 'app://orders/A-17' },
      android: { priority: 'high' },
    });
  });

  it('overrides.chat.integrationIdentifier sends only through that entry, with the overridden content', async () => {
    const env = await environment({ template: { type: 'chat', content: 'Hi {{subscriber.firstName}}' } });
    for (const identifier of ['hook-a', 'hook-b']) {
      await env.integration({ providerId: 'chat-webhook', channel: 'chat', identifier });
      expect(
        (
          await t.api('patch', '/v1/subscribers/ada/credentials', env.apiKey).send({
            providerId: 'chat-webhook',
            integrationIdentifier: identifier,
            credentials: { webhookUrl: `${receiver.url}/${identifier}` },
          })
        ).status,
      ).toBe(200);
    }
    const both = await env.trigger({});
    expect(both.requests.map((request) => request.path).sort()).toEqual(['/hook-a', '/hook-b']);

    const picked = await env.trigger({
      overrides: { chat: { integrationIdentifier: 'hook-b', content: 'Overridden' } },
    });
    expect(picked.job.status).toBe('completed');
    expect(picked.requests.map((request) => [request.path, request.json.content])).toEqual([['/hook-b', 'Overridden']]);
  });

  it.each([
    [{ email: { integrationIdentifier: 5 } }, 'overrides.email.integrationIdentifier'],
    [{ email: { cc: ['ok@example.com', 'two@example.com, three@example.com'] } }, 'overrides.email.cc[1]'],
    [{ sms: { to: 15550001 } }, 'overrides.sms.to'],
    [{ push: 'title' }, 'overrides.push'],
    [{ fcm: 'data' }, 'overrides.fcm'],
    [
      { providers: { sendgrid: { _passthrough: { headers: { 'x-a': 'one\r\nInjected: yes' } } } } },
      'overrides.providers.sendgrid._passthrough.headers.x-a',
    ],
    [{ providers: { sendgrid: { _passthrough: { body: [] } } } }, 'overrides.providers.sendgrid._passthrough.body'],
    [
      { steps: { 'welcome-email': { providers: { sendgrid: { replyTo: 'a@b.test, c@d.test' } } } } },
      'overrides.steps.welcome-email.providers.sendgrid.replyTo',
    ],
    [{ steps: [] }, 'overrides.steps'],
  ])('422 naming the malformed override, nothing stored or sent (%#)', async (overrides, field) => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-422');
    const before = receiver.requests.length;
    const eventsBefore = (await t.db.select({ id: triggerEvents.id }).from(triggerEvents)).length;
    const res = await t.api('post', '/v1/events/trigger', env.apiKey).send({ name: 'notify', to: 'ada', overrides });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect((await t.db.select({ id: triggerEvents.id }).from(triggerEvents)).length).toBe(eventsBefore);
    expect(receiver.requests.length).toBe(before);
  });

  describe('bulk triggers, topics and broadcast carry overrides and tenant to every recipient', () => {
    const acmeOnly = [
      { value: 'AND', children: [{ on: 'tenant', field: 'identifier', operator: 'EQUAL', value: 'acme' }] },
    ];

    async function routedEnvironment() {
      const env = await environment(EMAIL_STEP);
      await env.sendgrid('sg-default');
      await env.sendgrid('sg-acme', { conditions: acmeOnly });
      expect((await t.api('post', '/v1/tenants', env.apiKey).send({ identifier: 'acme', name: 'Acme' })).status).toBe(
        201,
      );
      return env;
    }
    const overrides = { email: { replyTo: 'support@acme.test' } };
    const sent = (requests: ProviderRequest[]) =>
      requests
        .map((request) => [request.path, request.json.personalizations[0].to[0].email, request.json.reply_to?.email])
        .sort();

    it('bulk', async () => {
      const env = await routedEnvironment();
      const before = receiver.requests.length;
      await settle(
        env.apiKey,
        '/v1/events/trigger/bulk',
        { events: ['ada', 'bob'].map((to) => ({ name: 'notify', to, tenant: 'acme', overrides })) },
        2,
      );
      expect(sent(receiver.requests.slice(before))).toEqual([
        ['/sg-acme/v3/mail/send', 'ada@example.com', 'support@acme.test'],
        ['/sg-acme/v3/mail/send', 'bob@example.com', 'support@acme.test'],
      ]);
    });

    it('topic', async () => {
      const env = await routedEnvironment();
      expect(
        (await t.api('post', '/v2/topics/team/subscriptions', env.apiKey).send({ subscriptions: ['ada', 'bob'] }))
          .status,
      ).toBeLessThan(300);
      const before = receiver.requests.length;
      await settle(
        env.apiKey,
        '/v1/events/trigger',
        { name: 'notify', to: [{ type: 'Topic', topicKey: 'team' }], tenant: 'acme', overrides },
        2,
      );
      expect(sent(receiver.requests.slice(before))).toEqual([
        ['/sg-acme/v3/mail/send', 'ada@example.com', 'support@acme.test'],
        ['/sg-acme/v3/mail/send', 'bob@example.com', 'support@acme.test'],
      ]);
    });

    it('broadcast', async () => {
      const env = await routedEnvironment();
      const before = receiver.requests.length;
      await settle(
        env.apiKey,
        '/v1/events/trigger/broadcast',
        { name: 'notify', payload: {}, tenant: 'acme', overrides },
        2,
      );
      expect(sent(receiver.requests.slice(before))).toEqual([
        ['/sg-acme/v3/mail/send', 'ada@example.com', 'support@acme.test'],
        ['/sg-acme/v3/mail/send', 'bob@example.com', 'support@acme.test'],
      ]);
    });
  });
});
