import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { detailsOf, messagesOf } from '../support/engine-fixtures.js';
import { startHttpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { createIntegration, createSubscriber, saveWorkflow, updateCredentials } from './support/engine-seeds.js';

/**
 * One workflow chaining email, chat and push, configured only through the API's use cases, delivered
 * to local receivers (test/delivery.e2e.ts covers every provider one by one).
 */
describe('workflow engine: email, chat and push in one workflow', () => {
  let e: Engine;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let http: Awaited<ReturnType<typeof startHttpReceiver>>;
  beforeAll(async () => {
    [e, smtp, http] = await Promise.all([startEngine(), startSmtpReceiver(), startHttpReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([e?.close(), smtp?.close(), http?.close()]);
  });

  it('each step reaches its receiver with the rendered content; one message per step', async () => {
    const integrations = [
      {
        providerId: 'nodemailer',
        channel: 'email',
        credentials: {
          host: '127.0.0.1',
          port: String(smtp.port),
          secure: false,
          ignoreTls: true,
          from: 'app@example.com',
        },
      },
      { providerId: 'chat-webhook', channel: 'chat', credentials: {} },
      { providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: `${http.url}/push` } },
    ];
    for (const body of integrations) await createIntegration(e, body);
    await createSubscriber(e, { subscriberId: 'chan-sub', firstName: 'Ada', email: 'ada@example.com' });
    await updateCredentials(e, 'chan-sub', {
      providerId: 'chat-webhook',
      credentials: { webhookUrl: `${http.url}/chat` },
    });
    await updateCredentials(e, 'chan-sub', { providerId: 'push-webhook', credentials: { deviceTokens: ['token-1'] } });
    await saveWorkflow(e, {
      name: 'Three channels',
      identifier: 'three-channels',
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Order {{payload.order}}',
            content: '<p>Hi {{subscriber.firstName}}, order {{payload.order}} shipped</p>',
          },
        },
        { template: { type: 'chat', content: 'chat: order {{payload.order}}' } },
        { template: { type: 'push', title: 'Order {{payload.order}}', content: 'push for {{subscriber.firstName}}' } },
      ],
    });

    const { transactionId, jobs } = await e.triggerAndSettle({
      name: 'three-channels',
      to: 'chan-sub',
      payload: { order: 'A-1' },
    });
    const details = await Promise.all(jobs.map((job) => detailsOf(e, job.id)));
    expect({
      statuses: jobs.map((job) => job.status),
      details: details.flat().map((detail) => detail.detail),
    }).toMatchObject({
      statuses: ['completed', 'completed', 'completed'],
    });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ from: 'app@example.com', to: ['ada@example.com'] });
    expect(smtp.mails[0].raw).toContain('Subject: Order A-1');
    expect(smtp.mails[0].raw).toContain('Hi Ada, order A-1 shipped');
    const chat = http.requests.filter((request) => request.url === '/chat');
    const push = http.requests.filter((request) => request.url === '/push');
    expect(chat.map((request) => request.json)).toEqual([
      expect.objectContaining({ content: 'chat: order A-1', subscriberId: 'chan-sub', transactionId }),
    ]);
    expect(push.map((request) => request.json)).toEqual([
      expect.objectContaining({ target: ['token-1'], title: 'Order A-1', content: 'push for Ada' }),
    ]);
    const messages = await messagesOf(e, transactionId);
    expect(messages.map((message) => [message.channel, message.status]).sort()).toEqual([
      ['chat', 'sent'],
      ['email', 'sent'],
      ['push', 'sent'],
    ]);
    expect(jobs.map((job) => job.type)).toEqual(['email', 'chat', 'push']);
  }, 30_000);
  it('escapes payload values in email and in_app content (raw keeps trusted HTML); chat text and subjects stay as sent', async () => {
    await createSubscriber(e, { subscriberId: 'html-sub', firstName: 'Ada', email: 'html@example.com' });
    await updateCredentials(e, 'html-sub', {
      providerId: 'chat-webhook',
      credentials: { webhookUrl: `${http.url}/chat` },
    });
    const workflow = await saveWorkflow(e, {
      name: 'Escaped HTML',
      steps: [
        {
          template: {
            type: 'email',
            subject: 'About {{ payload.html }}',
            content: '<p>{{ payload.html }}</p>{{ payload.trusted | raw }}',
          },
        },
        { template: { type: 'in_app', content: '<p>{{ payload.html }}</p>{{ payload.trusted | raw }}' } },
        { template: { type: 'chat', content: 'chat {{ payload.html }}' } },
      ],
    });
    const mailsBefore = smtp.mails.length;
    const payload = { html: '<script>steal()</script>', trusted: '<a href="https://example.com">ok</a>' };
    const { transactionId, jobs } = await e.triggerAndSettle({
      name: workflow.triggers[0].identifier,
      to: 'html-sub',
      payload,
    });
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed', 'completed']);
    const mail = smtp.mails[mailsBefore].raw;
    const [, html] = mail.split('Content-Type: text/html');
    expect(html).toContain('&lt;script&gt;steal()&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(mail).toContain('Subject: About <script>steal()</script>');
    const inApp = (await messagesOf(e, transactionId)).find((message) => message.channel === 'in_app');
    expect(inApp?.content).toBe('<p>&lt;script&gt;steal()&lt;/script&gt;</p><a href="https://example.com">ok</a>');
    expect(http.requests.filter((request) => request.url === '/chat').at(-1)?.json).toMatchObject({
      content: 'chat <script>steal()</script>',
    });
  }, 30_000);
});
