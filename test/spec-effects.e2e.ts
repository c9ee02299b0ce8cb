import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jobsOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { startProviderReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

const EMAIL_STEP = { type: 'email', subject: 'Order {{payload.order}}', content: 'Order {{payload.order}} shipped' };

/** What GET /v1/messages answers for one transaction, seen with the environment's key. */
async function listedMessages(t: TestApp, apiKey: string, transactionId: string): Promise<Body[]> {
  const res = await t.api('get', `/v1/messages?transactionId=${encodeURIComponent(transactionId)}`, apiKey);
  expect(res.status).toBe(200);
  return res.body.data as Body[];
}

/** A fresh environment with the integrations, a one-step workflow `check` and the subscriber `ada`. */
async function environment(t: TestApp, setup: { integrations: Body[]; step: Body; subscriber: Body }) {
  const { apiKey } = await t.createForeignKey();
  for (const integration of setup.integrations) {
    expect((await t.api('post', '/v1/integrations', apiKey).send(integration)).status).toBe(201);
  }
  const workflow = { name: 'check', identifier: 'check', steps: [{ template: setup.step }] };
  expect((await t.api('post', '/v1/workflows', apiKey).send(workflow)).status).toBe(201);
  const subscriber = { subscriberId: 'ada', firstName: 'Ada', ...setup.subscriber };
  expect((await t.api('post', '/v2/subscribers', apiKey).send(subscriber)).status).toBe(201);
  /** Triggers `check` for ada, waits for its jobs to settle, and answers the messages as listed over HTTP. */
  const messages = async () => {
    const { transactionId } = await triggerWithKeyAndSettle(t, apiKey, {
      name: 'check',
      to: 'ada',
      payload: { order: 'A-17' },
    });
    return listedMessages(t, apiKey, transactionId);
  };
  return { apiKey, messages };
}

describe('spec fields that take effect: message errorId, workflow draft', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    // One attempt per send and a circuit that opens after one server error keep each failure to one call.
    t = await startTestApp({
      env: { PROVIDER_MAX_ATTEMPTS: '1', PROVIDER_TIMEOUT_MS: '2000', PROVIDER_BREAKER_FAILURES: '1' },
    });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const sendgrid = (path: string) => ({
    providerId: 'sendgrid',
    channel: 'email',
    identifier: `sendgrid${path.replaceAll('/', '-')}`,
    credentials: { apiKey: 'SG.key', from: 'no-reply@acme.test', baseUrl: `${receiver.url}${path}` },
  });

  describe('Message errorId: a stable code beside errorText', () => {
    it('an email step for a subscriber without an email address: warning, missing_address', async () => {
      const env = await environment(t, { integrations: [sendgrid('/unused')], step: EMAIL_STEP, subscriber: {} });
      const before = receiver.requests.length;
      const messages = await env.messages();
      expect(receiver.requests.length).toBe(before);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        channel: 'email',
        status: 'warning',
        errorId: 'missing_address',
        errorText: 'Subscriber does not have an email address',
      });
    });

    it('a chat step for a subscriber without a chat channel: warning, missing_channel', async () => {
      const env = await environment(t, {
        integrations: [{ providerId: 'slack', channel: 'chat', identifier: 'slack-main', credentials: {} }],
        step: { type: 'chat', content: 'Order {{payload.order}}' },
        subscriber: {},
      });
      const [message] = await env.messages();
      expect(message).toMatchObject({
        channel: 'chat',
        status: 'warning',
        errorId: 'missing_channel',
        errorText: expect.stringMatching(/^Subscriber does not have a configured chat channel/),
      });
    });

    it('a provider answering 500: provider_unavailable; the next send finds the circuit open: circuit_open', async () => {
      const env = await environment(t, {
        integrations: [sendgrid('/down')],
        step: EMAIL_STEP,
        subscriber: { email: 'ada@example.com' },
      });
      const before = receiver.requests.length;
      receiver.queue.push({ status: 500, body: { errors: [{ message: 'internal error' }] } });
      const [failed] = await env.messages();
      expect(receiver.requests.length).toBe(before + 1);
      expect(failed).toMatchObject({
        status: 'error',
        errorId: 'provider_unavailable',
        errorText: expect.stringMatching(
          /^Sending through integration sendgrid-down failed: SendGrid answered HTTP 500/,
        ),
      });
      const [deferred] = await env.messages();
      expect(receiver.requests.length).toBe(before + 1);
      expect(deferred).toMatchObject({
        status: 'error',
        errorId: 'circuit_open',
        errorText: expect.stringMatching(/^Sending through integration sendgrid-down deferred: its endpoint failed/),
      });
    });

    it('a provider refusing the request (400): provider_rejected; refusing the key (401): invalid_credentials', async () => {
      const env = await environment(t, {
        integrations: [sendgrid('/refuse')],
        step: EMAIL_STEP,
        subscriber: { email: 'ada@example.com' },
      });
      receiver.queue.push({ status: 400, body: { errors: [{ message: 'bad from' }] } });
      const [rejected] = await env.messages();
      expect(rejected).toMatchObject({
        status: 'error',
        errorId: 'provider_rejected',
        errorText: expect.stringMatching(/SendGrid answered HTTP 400/),
      });
      receiver.queue.push({ status: 401, body: { errors: [{ message: 'bad key' }] } });
      const [refused] = await env.messages();
      expect(refused).toMatchObject({ status: 'error', errorId: 'invalid_credentials' });
    });

    it('a sent message has no errorId', async () => {
      const env = await environment(t, {
        integrations: [sendgrid('/up')],
        step: EMAIL_STEP,
        subscriber: { email: 'ada@example.com' },
      });
      receiver.queue.push({ status: 202 });
      const [sent] = await env.messages();
      expect(sent.status).toBe('sent');
      expect(sent).not.toHaveProperty('errorId');
      expect(sent).not.toHaveProperty('errorText');
    });
  });

  describe('Workflow draft: a draft is not run', () => {
    it('a trigger of a draft answers trigger_not_active (single and bulk) and creates nothing; draft:false runs it', async () => {
      const { apiKey } = await t.createForeignKey();
      const created = await t.api('post', '/v1/workflows', apiKey).send({
        name: 'Draft',
        identifier: 'draft-flow',
        draft: true,
        steps: [{ template: { type: 'in_app', content: 'Hi' } }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ active: true, draft: true });
      expect((await t.api('post', '/v2/subscribers', apiKey).send({ subscriberId: 'ada' })).status).toBe(201);

      const single = await t
        .api('post', '/v1/events/trigger', apiKey)
        .send({ name: 'draft-flow', to: 'ada', transactionId: 'draft-single' });
      expect(single.status).toBe(201);
      expect(single.body).toEqual({ acknowledged: true, status: 'trigger_not_active', transactionId: 'draft-single' });
      const bulk = await t
        .api('post', '/v1/events/trigger/bulk', apiKey)
        .send({ events: [{ name: 'draft-flow', to: 'ada', transactionId: 'draft-bulk' }] });
      expect(bulk.status).toBe(201);
      expect(bulk.body).toEqual([{ acknowledged: true, status: 'trigger_not_active', transactionId: 'draft-bulk' }]);
      for (const transactionId of ['draft-single', 'draft-bulk']) {
        expect(await jobsOf(t, transactionId)).toEqual([]);
        expect(await listedMessages(t, apiKey, transactionId)).toEqual([]);
      }

      const published = await t.api('put', `/v1/workflows/${created.body._id}`, apiKey).send({ draft: false });
      expect(published.status).toBe(200);
      expect(published.body).toMatchObject({ active: true, draft: false });
      const { transactionId } = await triggerWithKeyAndSettle(t, apiKey, { name: 'draft-flow', to: 'ada' });
      const [message] = await listedMessages(t, apiKey, transactionId);
      expect(message).toMatchObject({ channel: 'in_app', content: 'Hi' });
    });

    it('the status route keeps draft the opposite of active, as Novu does', async () => {
      const { apiKey } = await t.createForeignKey();
      const created = await t.api('post', '/v1/workflows', apiKey).send({
        name: 'Toggle',
        identifier: 'toggle-flow',
        active: false,
        draft: true,
        steps: [{ template: { type: 'in_app', content: 'Hi' } }],
      });
      expect(created.status).toBe(201);
      const status = (active: boolean) =>
        t.api('put', `/v1/workflows/${created.body._id}/status`, apiKey).send({ active });
      expect((await status(true)).body).toMatchObject({ active: true, draft: false });
      expect((await t.api('post', '/v2/subscribers', apiKey).send({ subscriberId: 'ada' })).status).toBe(201);
      const { jobs } = await triggerWithKeyAndSettle(t, apiKey, { name: 'toggle-flow', to: 'ada' });
      expect(jobs.map((job) => job.status)).toEqual(['completed']);
      expect((await status(false)).body).toMatchObject({ active: false, draft: true });
    });
  });
});
