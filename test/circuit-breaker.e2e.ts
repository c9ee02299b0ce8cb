import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { detailsOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { startProviderReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * An endpoint that keeps failing is not called again until its circuit's window has passed: later
 * messages fail over at once or wait in the queue, with a detail saying why, instead of each
 * spending a worker slot on the same failure.
 */
describe('circuit breakers per endpoint', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PROVIDER_MAX_ATTEMPTS: '1',
        PROVIDER_BREAKER_FAILURES: '2',
        PROVIDER_BREAKER_OPEN_MS: '60000',
      },
    });
    receiver = await startProviderReceiver({
      answer: (request) => (request.path.startsWith('/down') ? { status: 503, body: { error: 'down' } } : undefined),
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('after two failures in a row the endpoint gets no more calls; a second integration takes the messages', async () => {
    const { apiKey } = await t.createForeignKey();
    const sendgrid = (identifier: string, path: string) =>
      t.api('post', '/v1/integrations', apiKey).send({
        providerId: 'sendgrid',
        channel: 'email',
        identifier,
        credentials: { apiKey: 'SG.key', from: 'no-reply@acme.test', baseUrl: `${receiver.url}${path}` },
      });
    expect((await sendgrid('down', '/down')).status).toBe(201);
    expect(
      (
        await t.api('post', '/v1/workflows', apiKey).send({
          name: 'notice',
          identifier: 'notice',
          steps: [{ template: { type: 'email', subject: 'S', content: 'C' } }],
        })
      ).status,
    ).toBe(201);
    expect(
      (await t.api('post', '/v2/subscribers', apiKey).send({ subscriberId: 'ada', email: 'ada@example.com' })).status,
    ).toBe(201);
    const trigger = async () => {
      const { jobs } = await triggerWithKeyAndSettle(t, apiKey, { name: 'notice', to: 'ada' });
      return { job: jobs[0], details: (await detailsOf(t, jobs[0].id)).map((detail) => detail.detail) };
    };
    const calls = () => receiver.requests.filter((request) => request.path.startsWith('/down')).length;

    for (let i = 0; i < 2; i++) expect((await trigger()).job.status).toBe('failed');
    expect(calls()).toBe(2);

    const blocked = await trigger();
    expect(blocked.job.status).toBe('failed');
    expect(calls()).toBe(2);
    expect(blocked.details).toContainEqual(
      expect.stringMatching(
        /^Attempt 1 of 1 through down not made: its endpoint failed 2 times in a row .* pause for \d+ s$/,
      ),
    );

    expect((await sendgrid('up', '/up')).status).toBe(201);
    const failedOver = await trigger();
    expect(failedOver.job.status).toBe('completed');
    expect(calls()).toBe(2);
    expect(receiver.requests.filter((request) => request.path.startsWith('/up'))).toHaveLength(1);
    expect(failedOver.details).toContainEqual(
      expect.stringMatching(/^Integration down \(sendgrid\) skipped: its endpoint failed/),
    );
  });
});
