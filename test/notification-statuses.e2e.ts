import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jobsOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { waitFor } from './support/wait.js';
import { startProviderReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * GET /v1/notifications?statuses=…: three notifications triggered through the API — one whose email
 * fails (its provider answers 400), one delivered, one waiting in a delay — each found by its status
 * alone, by the others' complements, and never by an unknown status.
 */
describe('GET /v1/notifications statuses filter', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  let apiKey: string;
  const transactions: Record<'failed' | 'completed' | 'pending', string> = { failed: '', completed: '', pending: '' };

  const list = (query: string) => t.api('get', `/v1/notifications${query}`, apiKey);
  const transactionsOf = async (query: string): Promise<string[]> => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return (res.body.data as { transactionId: string }[]).map((item) => item.transactionId).sort();
  };
  const sorted = (...names: (keyof typeof transactions)[]) => names.map((name) => transactions[name]).sort();

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_MAX_ATTEMPTS: '1', PROVIDER_TIMEOUT_MS: '2000' } });
    receiver = await startProviderReceiver();
    ({ apiKey } = await t.createForeignKey());
    const created = await t.api('post', '/v1/integrations', apiKey).send({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'sendgrid-main',
      credentials: { apiKey: 'SG.key', from: 'no-reply@acme.test', baseUrl: receiver.url },
    });
    expect(created.status).toBe(201);
    const email = { type: 'email', subject: 'Order {{payload.order}}', content: 'Shipped' };
    for (const [identifier, steps] of [
      ['order-email', [{ template: email }]],
      [
        'order-later',
        [{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }, { template: email }],
      ],
    ] as const) {
      expect((await t.api('post', '/v1/workflows', apiKey).send({ name: identifier, identifier, steps })).status).toBe(
        201,
      );
    }
    const subscriber = await t
      .api('post', '/v2/subscribers', apiKey)
      .send({ subscriberId: 'ada', email: 'ada@x.test' });
    expect(subscriber.status).toBe(201);

    receiver.queue.push({ status: 400, body: { errors: [{ message: 'bad request' }] } });
    const failed = await triggerWithKeyAndSettle(t, apiKey, { name: 'order-email', to: 'ada', payload: { order: 1 } });
    expect(failed.jobs.map((job) => job.status)).toEqual(['failed']);
    transactions.failed = failed.transactionId;

    const completed = await triggerWithKeyAndSettle(t, apiKey, {
      name: 'order-email',
      to: 'ada',
      payload: { order: 2 },
    });
    expect(completed.jobs.map((job) => job.status)).toEqual(['completed']);
    transactions.completed = completed.transactionId;

    const later = await t.api('post', '/v1/events/trigger', apiKey).send({ name: 'order-later', to: 'ada' });
    expect(later.status).toBe(201);
    transactions.pending = later.body.transactionId as string;
    await waitFor(async () => (await jobsOf(t, transactions.pending)).some((job) => job.status === 'delayed'), {
      description: 'the delay step to wait',
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('no statuses: every notification, as before', async () => {
    expect(await transactionsOf('')).toEqual(sorted('failed', 'completed', 'pending'));
  });

  it.each([
    ['?statuses=failed', ['failed']],
    ['?statuses=pending', ['pending']],
    ['?statuses=completed', ['completed']],
    ['?statuses=failed&statuses=pending', ['failed', 'pending']],
    ['?statuses[]=failed&statuses[]=completed', ['failed', 'completed']],
    ['?statuses=completed&statuses=pending', ['pending', 'completed']],
    ['?statuses=completed&statuses=failed&statuses=pending&statuses=failed', ['failed', 'pending', 'completed']],
  ] as const)('%s lists exactly the notifications with those statuses', async (query, names) => {
    expect(await transactionsOf(query)).toEqual(sorted(...names));
  });

  it('combines with the other filters and pages', async () => {
    expect(await transactionsOf(`?statuses=failed&transactionId=${transactions.completed}`)).toEqual([]);
    expect(await transactionsOf(`?statuses=completed&transactionId=${transactions.completed}`)).toEqual(
      sorted('completed'),
    );
    const first = await list('?statuses=failed&statuses=completed&limit=1');
    expect(first.body).toMatchObject({ hasMore: true, pageSize: 1, page: 0 });
    const second = await list('?statuses=failed&statuses=completed&limit=1&page=1');
    expect(second.body.hasMore).toBe(false);
    expect([first.body.data[0].transactionId, second.body.data[0].transactionId].sort()).toEqual(
      sorted('failed', 'completed'),
    );
  });

  it('an unknown status is a 422 in the error shape, and changes nothing', async () => {
    const before = await transactionsOf('');
    for (const query of ['?statuses=done', '?statuses=failed&statuses=FAILED', '?statuses[]=in_progress']) {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, errors: { statuses: expect.anything() } });
    }
    expect(await transactionsOf('')).toEqual(before);
  });
});
