import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { subscribers, triggerEvents } from '#dal';
import { createWorkflow, detailsOf, messagesOf, step, triggerAndSettle } from './support/engine-fixtures.js';
import { startSmtpReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Addresses that would reach more than the one recipient named. */
const TWO_RECIPIENTS = 'victim@acme.test, attacker@evil.test';
const HEADER_INJECTION = 'ok@acme.test\r\nBcc: hidden@evil.test';
const BAD_EMAILS = [
  TWO_RECIPIENTS,
  HEADER_INJECTION,
  'a@acme.test;b@evil.test',
  'Victim <victim@acme.test>',
  'no-at-sign',
  'two@@acme.test',
  'lf@acme.test\n',
];

describe('email fields hold exactly one address, wherever they are written', () => {
  let t: TestApp;
  let workflowId: string;
  beforeAll(async () => {
    t = await startTestApp();
    workflowId = (await createWorkflow(t, { steps: [step({ template: { type: 'in_app', content: 'hi' } })] }))
      .identifier;
  });
  afterAll(async () => {
    await t?.close();
  });

  const storedSubscriber = async (subscriberId: string) =>
    (
      await t.db
        .select()
        .from(subscribers)
        .where(and(eq(subscribers.environmentId, t.environment.id), eq(subscribers.subscriberId, subscriberId)))
    )[0];
  const eventCount = async () => (await t.db.select().from(triggerEvents)).length;

  it('POST and PATCH /v2/subscribers: 422 naming email, nothing stored', async () => {
    for (const [index, email] of BAD_EMAILS.entries()) {
      const created = await t.api('post', '/v2/subscribers').send({ subscriberId: `inj-create-${index}`, email });
      expect({ email, status: created.status, fields: Object.keys(created.body.errors ?? {}) }).toEqual({
        email,
        status: 422,
        fields: ['email'],
      });
      expect(await storedSubscriber(`inj-create-${index}`)).toBeUndefined();
    }
    expect(
      (await t.api('post', '/v2/subscribers').send({ subscriberId: 'inj-patch', email: 'safe@acme.test' })).status,
    ).toBe(201);
    for (const email of BAD_EMAILS) {
      const patched = await t.api('patch', '/v2/subscribers/inj-patch').send({ email });
      expect({ email, status: patched.status, fields: Object.keys(patched.body.errors ?? {}) }).toEqual({
        email,
        status: 422,
        fields: ['email'],
      });
    }
    expect((await storedSubscriber('inj-patch')).email).toBe('safe@acme.test');
  });

  it('ordinary addresses (and the empty string, no address) are still accepted as sent', async () => {
    for (const [index, email] of [
      "o'brien+tag@mail.example.co.uk",
      'Ada@Example.com',
      'x_y-z.1@localhost',
      '',
    ].entries()) {
      const res = await t.api('post', '/v2/subscribers').send({ subscriberId: `inj-ok-${index}`, email });
      expect({ email, status: res.status }).toEqual({ email, status: 201 });
      expect(res.body.email).toBe(email);
    }
  });

  it('POST /v1/subscribers/bulk: the item fails naming email, the others are written', async () => {
    const res = await t.api('post', '/v1/subscribers/bulk').send({
      subscribers: [
        { subscriberId: 'inj-bulk-1', email: TWO_RECIPIENTS },
        { subscriberId: 'inj-bulk-2', email: HEADER_INJECTION },
        { subscriberId: 'inj-bulk-3', email: 'fine@acme.test' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toEqual([{ subscriberId: 'inj-bulk-3' }]);
    expect(res.body.failed).toEqual([
      { subscriberId: 'inj-bulk-1', message: expect.stringMatching(/^email: /) },
      { subscriberId: 'inj-bulk-2', message: expect.stringMatching(/^email: /) },
    ]);
    expect(await storedSubscriber('inj-bulk-1')).toBeUndefined();
    expect(await storedSubscriber('inj-bulk-2')).toBeUndefined();
  });

  it('a trigger: 422 naming to.email, to[i].email, actor.email and the overrides email fields; no event stored', async () => {
    const before = await eventCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ to: { subscriberId: 'inj-to', email: TWO_RECIPIENTS } }, 'to.email'],
      [{ to: ['inj-plain', { subscriberId: 'inj-to', email: HEADER_INJECTION }] }, 'to[1].email'],
      [{ to: 'inj-plain', actor: { subscriberId: 'inj-actor', email: TWO_RECIPIENTS } }, 'actor.email'],
      [{ to: 'inj-plain', overrides: { email: { to: [TWO_RECIPIENTS] } } }, 'overrides.email.to[0]'],
      [{ to: 'inj-plain', overrides: { email: { cc: ['ok@acme.test', HEADER_INJECTION] } } }, 'overrides.email.cc[1]'],
      [{ to: 'inj-plain', overrides: { email: { bcc: TWO_RECIPIENTS } } }, 'overrides.email.bcc'],
      [{ to: 'inj-plain', overrides: { email: { replyTo: HEADER_INJECTION } } }, 'overrides.email.replyTo'],
      [{ to: 'inj-plain', overrides: { email: { from: TWO_RECIPIENTS } } }, 'overrides.email.from'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api('post', '/v1/events/trigger').send({ name: workflowId, ...body });
      expect({ field, status: res.status, fields: Object.keys(res.body.errors ?? {}) }).toEqual({
        field,
        status: 422,
        fields: [field],
      });
      expect(res.body.message).toContain(field);
    }
    expect(await eventCount()).toBe(before);
    expect(await storedSubscriber('inj-to')).toBeUndefined();
    expect(await storedSubscriber('inj-actor')).toBeUndefined();

    const valid = await t.api('post', '/v1/events/trigger').send({
      name: workflowId,
      to: { subscriberId: 'inj-valid', email: 'valid@acme.test' },
      overrides: {
        email: { to: ['a@acme.test'], cc: 'b@acme.test', replyTo: 'c@acme.test', senderName: 'Acme, Inc.' },
      },
    });
    expect(valid.status).toBe(201);
    expect(valid.body.status).toBe('processed');
  });

  it('a bulk trigger answers the event with an error naming the field; the other events are processed', async () => {
    const res = await t.api('post', '/v1/events/trigger/bulk').send({
      events: [
        {
          name: workflowId,
          to: { subscriberId: 'inj-bulk-event', email: TWO_RECIPIENTS },
          transactionId: 'inj-bulk-bad',
        },
        { name: workflowId, to: 'inj-bulk-fine', transactionId: 'inj-bulk-good' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ status: 'error', transactionId: 'inj-bulk-bad' });
    expect(res.body[0].error.join(' ')).toContain('to.email');
    expect(res.body[1]).toMatchObject({ status: 'processed', transactionId: 'inj-bulk-good' });
    expect(await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, 'inj-bulk-bad'))).toEqual([]);
  });
});

describe('an email step sends to one valid address only, whatever the database holds', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let workflowId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_MAX_ATTEMPTS: '1' } });
    smtp = await startSmtpReceiver();
    const integration = await t.api('post', '/v1/integrations').send({
      providerId: 'nodemailer',
      channel: 'email',
      credentials: {
        host: '127.0.0.1',
        port: String(smtp.port),
        secure: false,
        ignoreTls: true,
        from: 'no-reply@acme.test',
      },
    });
    expect(integration.status).toBe(201);
    workflowId = (
      await createWorkflow(t, {
        steps: [step({ template: { type: 'email', subject: 'Hello', content: '<p>Hello</p>' } })],
      })
    ).identifier;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a valid address is delivered (the control)', async () => {
    expect(
      (await t.api('post', '/v2/subscribers').send({ subscriberId: 'smtp-ok', email: 'ok@acme.test' })).status,
    ).toBe(201);
    const { jobs } = await triggerAndSettle(t, { name: workflowId, to: 'smtp-ok' });
    expect(jobs[0].status).toBe('completed');
    expect(smtp.mails.at(-1)?.to).toEqual(['ok@acme.test']);
  });

  it.each([
    ['two recipients', TWO_RECIPIENTS],
    ['a Bcc header after CR/LF', HEADER_INJECTION],
  ])(
    'an address with %s written straight into the database: nothing is sent, the step fails with a clear detail',
    async (_name, email) => {
      const subscriberId = `smtp-bad-${email.length}`;
      expect(
        (await t.api('post', '/v2/subscribers').send({ subscriberId, email: 'placeholder@acme.test' })).status,
      ).toBe(201);
      await t.db
        .update(subscribers)
        .set({ email })
        .where(and(eq(subscribers.environmentId, t.environment.id), eq(subscribers.subscriberId, subscriberId)));
      const mailsBefore = smtp.mails.length;

      const { transactionId, jobs } = await triggerAndSettle(t, { name: workflowId, to: subscriberId });

      expect(jobs[0].status).toBe('failed');
      expect(smtp.mails.length).toBe(mailsBefore);
      const details = (await detailsOf(t, jobs[0].id)).map((detail) => detail.detail);
      expect(details.join('\n')).toMatch(/email address is not one valid address/);
      expect(details.join('\n')).not.toContain('evil.test');
      const [message] = await messagesOf(t, transactionId);
      expect(message).toMatchObject({ status: 'error', errorText: expect.stringMatching(/not one valid address/) });
    },
  );
});
