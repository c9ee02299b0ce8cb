import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JobRow } from '#dal';
import { detailsOf, messagesOf } from '../support/engine-fixtures.js';
import { startProviderReceiver, type ProviderReceiver } from '../support/receivers.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { createSubscriber, saveWorkflow } from './support/engine-seeds.js';

const FAILED_REQUEST_RUN = 'Step skipped: an earlier http_request step failed';

/** A workflow saved through the API's use case: an http_request step named `lookup`, then an in_app step. */
async function saveLookup(
  e: Engine,
  identifier: string,
  metadata: Record<string, unknown>,
  content = 'plan {{ steps.lookup.response.body.plan }}',
): Promise<void> {
  await saveWorkflow(e, {
    name: identifier,
    identifier,
    steps: [
      { name: 'lookup', template: { type: 'http_request' }, metadata },
      { template: { type: 'in_app', content } },
    ],
  });
}

const texts = async (e: Engine, job: JobRow) =>
  (await detailsOf(e, job.id)).map((detail) => [detail.status, detail.detail]);

describe('workflow engine: http_request steps', () => {
  let e: Engine;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    e = await startEngine({ PROVIDER_MAX_ATTEMPTS: '3', PROVIDER_BACKOFF_MS: '20' });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await e?.close();
    await receiver?.close();
  });

  it('POSTs the rendered body and headers; the next step renders the JSON answer from steps.<name>.response', async () => {
    receiver.queue.push({ status: 200, body: { plan: 'gold', seats: 3 }, headers: { 'x-request-id': 'r-1' } });
    await saveLookup(e, 'http-post', {
      url: `${receiver.url}/users/{{subscriber.subscriberId}}?token=query-secret-value`,
      method: 'POST',
      headers: [
        { key: 'X-Order', value: '{{payload.order}}' },
        { key: 'Authorization', value: 'Bearer header-secret-value' },
      ],
      body: [
        { key: 'order', value: '{{payload.order}}' },
        { key: 'email', value: '{{subscriber.email}}' },
      ],
    });
    await createSubscriber(e, { subscriberId: 'ada', email: 'ada@example.com' });
    const before = receiver.requests.length;
    const { transactionId, jobs } = await e.triggerAndSettle({
      name: 'http-post',
      to: 'ada',
      payload: { order: 'o-7' },
    });
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
    const [request] = receiver.requests.slice(before);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/users/ada?token=query-secret-value');
    expect(request.headers['x-order']).toBe('o-7');
    expect(request.headers.authorization).toBe('Bearer header-secret-value');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({ order: 'o-7', email: 'ada@example.com' });
    expect((await messagesOf(e, transactionId)).map((message) => message.content)).toEqual(['plan gold']);
    expect(jobs[0].result?.response).toMatchObject({
      status: 200,
      body: { plan: 'gold', seats: 3 },
      headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' },
    });
    const details = await texts(e, jobs[0]);
    expect(details).toEqual([['Success', `POST ${receiver.url}/users/ada answered HTTP 200 (attempt 1 of 3)`]]);
    expect(JSON.stringify(details)).not.toContain('secret-value');
  });

  it('GET with an object body sends no body; PUT sends the object', async () => {
    await saveLookup(e, 'http-get', { url: `${receiver.url}/plan`, method: 'GET', body: { a: 1 } }, 'got it');
    await saveLookup(e, 'http-put', {
      url: `${receiver.url}/plan`,
      method: 'PUT',
      body: { a: { b: '{{payload.x}}' } },
    });
    const before = receiver.requests.length;
    await e.triggerAndSettle({ name: 'http-get', to: 'ada' });
    await e.triggerAndSettle({ name: 'http-put', to: 'ada', payload: { x: 'y' } });
    const [get, put] = receiver.requests.slice(before);
    expect([get.method, get.body]).toEqual(['GET', '']);
    expect([put.method, put.json]).toEqual(['PUT', { a: { b: 'y' } }]);
  });

  it('a 500 is retried, then the job fails with the answer in its details and the later steps are skipped', async () => {
    await saveLookup(e, 'http-500', { url: `${receiver.url}/fail`, method: 'POST', body: [] });
    receiver.queue.push(
      { status: 500, body: { message: 'down' } },
      { status: 503, body: { message: 'still down' } },
      { status: 500, body: { message: 'gone' } },
    );
    const before = receiver.requests.length;
    const { transactionId, jobs } = await e.triggerAndSettle({ name: 'http-500', to: 'ada' });
    expect(receiver.requests.length - before).toBe(3);
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'skipped']);
    expect(await messagesOf(e, transactionId)).toEqual([]);
    const details = await texts(e, jobs[0]);
    const url = `POST ${receiver.url}/fail`;
    expect(details).toEqual([
      [
        'Failed',
        expect.stringMatching(new RegExp(`^${url} answered HTTP 500: down \\(attempt 1 of 3\\); retrying in \\d+ ms$`)),
      ],
      ['Failed', expect.stringMatching(/answered HTTP 503: still down \(attempt 2 of 3\); retrying in \d+ ms$/)],
      ['Failed', `${url} answered HTTP 500: gone (attempt 3 of 3); the following steps are skipped`],
    ]);
    expect(await texts(e, jobs[1])).toEqual([['Warning', FAILED_REQUEST_RUN]]);
    expect(jobs[0].error).toBe(`${url} answered HTTP 500: gone (attempt 3 of 3)`);
  });

  it('a 4xx is not retried; with continueOnFailure the later step still runs and sees the answer', async () => {
    await saveLookup(
      e,
      'http-continue',
      { url: `${receiver.url}/missing`, continueOnFailure: true },
      'status {{ steps.lookup.response.status }}',
    );
    receiver.queue.push({ status: 404, body: { message: 'no such user' } });
    const before = receiver.requests.length;
    const { transactionId, jobs } = await e.triggerAndSettle({ name: 'http-continue', to: 'ada' });
    expect(receiver.requests.length - before).toBe(1);
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'completed']);
    expect((await messagesOf(e, transactionId)).map((message) => message.content)).toEqual(['status 404']);
    expect(await texts(e, jobs[0])).toEqual([
      [
        'Failed',
        `POST ${receiver.url}/missing answered HTTP 404: no such user (attempt 1 of 3); continueOnFailure is set: the following steps run`,
      ],
    ]);
  });

  it('a rendered URL that is no URL fails the step without a request', async () => {
    await saveLookup(e, 'http-rendered-url', { url: 'http://{{payload.host}}' });
    const before = receiver.requests.length;
    const { jobs } = await e.triggerAndSettle({ name: 'http-rendered-url', to: 'ada', payload: { host: 'a b' } });
    expect(receiver.requests.length).toBe(before);
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'skipped']);
    expect(await texts(e, jobs[0])).toEqual([
      ['Failed', 'The rendered URL of the http_request step is not a URL; the following steps are skipped'],
    ]);
  });
});

describe('http_request steps with ALLOW_PRIVATE_WEBHOOK_TARGETS=false', () => {
  let e: Engine;
  let receiver: ProviderReceiver;
  beforeAll(async () => {
    e = await startEngine({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false', PROVIDER_BACKOFF_MS: '20' });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await e?.close();
    await receiver?.close();
  });

  it.each([
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['loopback', () => `${receiver.url}/internal`],
    ['private network', () => 'http://10.1.2.3/internal'],
  ])('a %s address is refused once, never contacted, and the later steps are skipped', async (_kind, url) => {
    const identifier = `ssrf-${_kind.split(' ')[0]}`;
    await saveLookup(e, identifier, { url: url() });
    const before = receiver.requests.length;
    const { jobs } = await e.triggerAndSettle({ name: identifier, to: 'mallory' });
    expect(receiver.requests.length).toBe(before);
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'skipped']);
    expect(await texts(e, jobs[0])).toEqual([
      ['Failed', expect.stringMatching(/refused: it resolves to a loopback, private, link-local or metadata address/)],
    ]);
  });
});
