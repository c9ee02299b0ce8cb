import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import { createIntegration } from './support/builders.js';
import { jobsOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startHttpReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { waitFor } from './support/wait.js';

/** Spec fields whose effect only shows after a real trigger: the feed's digest and tags, inline channels, tenants, warnings. */
describe('spec fields observed end to end', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
  beforeAll(async () => {
    t = await startTestApp();
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const createWorkflow = async (body: Body): Promise<Body> => {
    const res = await t.api('post', '/v1/workflows').send(body);
    expect([res.status, res.body.errors]).toEqual([201, undefined]);
    return res.body;
  };
  const feedItems = async (transactionId: string): Promise<Body[]> => {
    const res = await t.api('get', `/v1/notifications?limit=50&transactionId=${transactionId}`);
    expect(res.status).toBe(200);
    return res.body.data as Body[];
  };

  it("a timed digest's job shows monthDays as numbers and the notification the workflow's tags", async () => {
    const workflow = await createWorkflow({
      name: 'Monthly statement',
      tags: ['billing', 'monthly'],
      steps: [
        {
          template: { type: 'digest' },
          metadata: { type: 'timed', amount: 1, unit: 'months', timed: { atTime: '09:00', monthDays: ['1', '15'] } },
        },
        { template: { type: 'in_app', content: 'statement' } },
      ],
    });
    const res = await t.api('post', '/v1/events/trigger').send({ name: workflow.triggers[0].identifier, to: 'stmt' });
    const transactionId = res.body.transactionId as string;
    await waitFor(async () => (await jobsOf(t, transactionId))[0]?.status === 'delayed', {
      description: 'the digest window to open',
    });
    const [item] = await feedItems(transactionId);
    expect(item.tags).toEqual(['billing', 'monthly']);
    expect(item.jobs[0].digest.timed).toMatchObject({ atTime: '09:00', monthDays: [1, 15] });
    expect((await t.api('delete', `/v1/events/trigger/${transactionId}`)).body).toBe(true);
  });

  it('the notifications a digest gathered point at its notification with _digestedNotificationId', async () => {
    const workflow = await createWorkflow({
      name: 'Gathered',
      steps: [
        { template: { type: 'digest' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
        { template: { type: 'in_app', content: '{{step.total_count}} new' } },
      ],
    });
    const send = async () =>
      (await t.api('post', '/v1/events/trigger').send({ name: workflow.triggers[0].identifier, to: 'gathered' })).body
        .transactionId as string;
    // The second trigger is sent once the first one's digest is open, so the first is the one that leads.
    const first = await send();
    await waitFor(
      async () => (await jobsOf(t, first)).some((job) => job.type === 'digest' && job.status === 'delayed'),
      {
        description: 'the first digest to open',
      },
    );
    const second = await send();
    const settled = (rows: { status: string }[]) =>
      rows.length > 0 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));
    await waitFor(async () => (await Promise.all([first, second].map((txn) => jobsOf(t, txn)))).every(settled), {
      description: 'both digests to settle',
    });
    const [leading] = await feedItems(first);
    const [gathered] = await feedItems(second);
    expect(leading._digestedNotificationId).toBeUndefined();
    expect(gathered._digestedNotificationId).toBe(leading._id);
  });

  it("a recipient's inline channels are stored on the subscriber and receive the chat step", async () => {
    await createIntegration(t, { providerId: 'chat-webhook', channel: 'chat' });
    const workflow = await createWorkflow({
      name: 'Inline chat',
      steps: [{ template: { type: 'chat', content: 'hello {{subscriber.firstName}}' } }],
    });
    const webhookUrl = `${receiver.url}/inline`;
    const { jobs } = await triggerAndSettle(t, {
      name: workflow.triggers[0].identifier,
      to: {
        subscriberId: 'inline-chat',
        firstName: 'Ada',
        channels: [{ providerId: 'chat-webhook', credentials: { webhookUrl } }],
      },
    });
    expect(jobs.map((job) => job.status)).toEqual(['completed']);
    expect(receiver.requests.filter((request) => request.url === '/inline').map((request) => request.json)).toEqual([
      expect.objectContaining({ content: 'hello Ada' }),
    ]);
    const subscriber = await t.api('get', '/v2/subscribers/inline-chat');
    expect(subscriber.body.channels).toEqual([
      expect.objectContaining({ providerId: 'chat-webhook', credentials: { webhookUrl } }),
    ]);
  });

  it("a trigger's tenant object updates the tenant's name and data before its steps render", async () => {
    await t.api('post', '/v1/tenants').send({ identifier: 'spec-acme', name: 'Acme' }).expect(201);
    const workflow = await createWorkflow({
      name: 'Tenant fields',
      steps: [{ template: { type: 'in_app', content: '{{tenant.name}} on {{tenant.data.plan}}' } }],
    });
    const { transactionId } = await triggerAndSettle(t, {
      name: workflow.triggers[0].identifier,
      to: 'tenant-sub',
      tenant: { identifier: 'spec-acme', name: 'Acme Corp', data: { plan: 'pro' } },
    });
    const tenant = await t.api('get', '/v1/tenants/spec-acme');
    expect(tenant.body).toMatchObject({ name: 'Acme Corp', data: { plan: 'pro' } });
    const messages = await t.api('get', `/v1/messages?transactionId=${transactionId}`);
    expect(messages.body.data.map((message: Body) => message.content)).toEqual(['Acme Corp on pro']);
  });

  it('an email step for a subscriber without an email address leaves a warning message', async () => {
    await createIntegration(t, {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'k', from: 'a@b.c' },
    });
    const workflow = await createWorkflow({
      name: 'No address',
      steps: [{ template: { type: 'email', subject: 'Hi', content: 'x' } }],
    });
    const { transactionId } = await triggerAndSettle(t, { name: workflow.triggers[0].identifier, to: 'no-email' });
    const res = await t.api('get', `/v1/messages?transactionId=${transactionId}`);
    expect(res.body.data).toEqual([
      expect.objectContaining({ channel: 'email', status: 'warning', errorText: expect.stringMatching(/email/) }),
    ]);
  });
});
