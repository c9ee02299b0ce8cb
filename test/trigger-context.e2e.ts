import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { triggerEvents } from '#dal';
import { createIntegration } from './support/builders.js';
import { triggerAndSettle } from './support/engine-fixtures.js';
import { startSmtpReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

describe('trigger context', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let identifier: string;

  beforeAll(async () => {
    t = await startTestApp();
    smtp = await startSmtpReceiver();
    await createIntegration(t, {
      providerId: 'nodemailer',
      channel: 'email',
      credentials: { host: '127.0.0.1', port: String(smtp.port), secure: false, ignoreTls: true, from: 'a@b.co' },
    });
    const res = await t.api('post', '/v1/workflows').send({
      name: 'Context',
      steps: [
        {
          template: {
            type: 'in_app',
            content: 'In {{ context.tenant.id }} / {{ context.project.id }} ({{ context.project.data.name }})',
          },
        },
        {
          template: {
            type: 'email',
            subject: 'For {{ context.tenant.id }}',
            content: '<p>project {{ context.project.id }}</p>',
          },
        },
      ],
    });
    expect(res.status).toBe(201);
    identifier = res.body.triggers[0].identifier as string;
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  it('every message of the trigger carries contextKeys type:id, through /v1/messages and the feed; templates read context', async () => {
    const { transactionId, jobs } = await triggerAndSettle(t, {
      name: identifier,
      to: [
        { subscriberId: 'ctx-a', email: 'a@ctx.test' },
        { subscriberId: 'ctx-b', email: 'b@ctx.test' },
        // No address: its email step writes a warning message, with the context too.
        { subscriberId: 'ctx-c' },
      ],
      context: { tenant: 'acme', project: { id: 'p1', data: { name: 'Apollo' } } },
    });
    expect(jobs).toHaveLength(6);

    const listed = await t.api('get', `/v1/messages?transactionId=${transactionId}&limit=10`).expect(200);
    const messages = listed.body.data as Body[];
    expect(messages.map((message) => [message.channel, message.status]).sort()).toEqual([
      ['email', 'sent'],
      ['email', 'sent'],
      ['email', 'warning'],
      ['in_app', 'sent'],
      ['in_app', 'sent'],
      ['in_app', 'sent'],
    ]);
    for (const message of messages) expect(message.contextKeys).toEqual(['project:p1', 'tenant:acme']);
    expect(messages.filter((message) => message.channel === 'in_app').map((message) => message.content)).toEqual([
      'In acme / p1 (Apollo)',
      'In acme / p1 (Apollo)',
      'In acme / p1 (Apollo)',
    ]);

    const feed = await t.api('get', '/v1/subscribers/ctx-a/notifications/feed').expect(200);
    const fed = (feed.body.data as Body[]).filter((message) => message.transactionId === transactionId);
    expect(fed).toHaveLength(1);
    expect(fed[0].contextKeys).toEqual(['project:p1', 'tenant:acme']);

    const mails = smtp.mails.filter((mail) => mail.to[0]?.endsWith('@ctx.test'));
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.raw).toContain('Subject: For acme');
      expect(mail.raw).toContain('project p1');
    }
  });

  it('a trigger without context writes empty contextKeys and renders context variables empty', async () => {
    const { transactionId } = await triggerAndSettle(t, {
      name: identifier,
      to: { subscriberId: 'ctx-none', email: 'none@ctx.test' },
    });
    const listed = await t.api('get', `/v1/messages?transactionId=${transactionId}`).expect(200);
    const messages = listed.body.data as Body[];
    expect(messages.map((message) => [message.channel, message.contextKeys]).sort()).toEqual([
      ['email', []],
      ['in_app', []],
    ]);
    expect(messages.find((message) => message.channel === 'in_app')?.content).toBe('In  /  ()');
  });

  const tooBig = { id: 'big', data: { blob: 'x'.repeat(64 * 1024) } };
  it.each([
    ['a string', 'acme'],
    ['a list', ['tenant:acme']],
    ['an id that is not a string', { tenant: 5 }],
    ['an object without id', { project: { data: {} } }],
    ['an id with a colon', { tenant: 'acme:1' }],
    ['a type with a colon', { 'ten:ant': 'acme' }],
    ['an empty id', { tenant: '' }],
    ['an id over 100 characters', { tenant: 'a'.repeat(101) }],
    ['data that is not an object', { project: { id: 'p1', data: 'x' } }],
    ['data over 64 KB', { project: tooBig }],
    ['six types', { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }],
  ])('422 on a context that is %s, and nothing is stored', async (_name, context) => {
    const transactionId = `ctx-bad-${Math.random().toString(36).slice(2)}`;
    const res = await t
      .api('post', '/v1/events/trigger')
      .send({ name: identifier, to: 'ctx-a', context, transactionId });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['context']);
    expect(await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId))).toEqual([]);
  });
});
