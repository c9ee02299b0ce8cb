import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { startInboxApp, createInboxWorkflow, deliver, sessionToken, type InboxApp } from './inbox/inbox-app.js';
import type { TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
}

interface Answer {
  status: number;
  /** Holds the answer this long (a hanging receiver). */
  delayMs?: number;
}

/** A receiver on 127.0.0.1 that records every request and answers from its script, then 200. */
async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  script: Answer[];
  /** The most requests it held unanswered at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const script: Answer[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((request, response) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    response.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body, event: JSON.parse(body) as Received['event'] });
      const answer = script.shift() ?? { status: 200 };
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(answer.status).end();
      }, answer.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    script,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a receiver holding `secret` concludes: the verified event, or the library's error. */
function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

async function createEndpoint(
  t: TestApp,
  body: Record<string, unknown>,
): Promise<{ _id: string; secret: string; eventTypes: string[] }> {
  const res = await t.api('post', '/v1/webhook-endpoints').send(body);
  expect(res.status).toBe(201);
  return res.body as { _id: string; secret: string; eventTypes: string[] };
}

describe('outbound webhooks', () => {
  let app: InboxApp;
  let t: TestApp;
  let workflowId: string;
  beforeAll(async () => {
    // Eight requests in flight per endpoint, so a burst of forty shows the bound.
    app = await startInboxApp({ env: { WEBHOOK_CONCURRENCY: '8' } });
    t = app.t;
    workflowId = (await createInboxWorkflow(t, 'webhook-inbox')).identifier;
    for (const subscriberId of ['wh-ada', 'wh-bob'])
      expect((await t.api('post', '/v2/subscribers').send({ subscriberId })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('signs message.sent for every delivered message, verifiable with the standardwebhooks library', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      const res = await t
        .api('post', '/v1/events/trigger')
        .send({ name: workflowId, to: ['wh-ada', 'wh-bob'], payload: { n: 1 } });
      expect(res.status).toBe(201);
      await waitFor(() => receiver.received.length >= 2, { description: 'two message.sent events' });
      const events = receiver.received.map((request) => verify(endpoint.secret, request) as Received['event']);
      expect(events.map((event) => event.type)).toEqual(['message.sent', 'message.sent']);
      expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(2);
      const data = events.map((event) => event.data);
      expect(data.map((message) => message.transactionId)).toEqual([res.body.transactionId, res.body.transactionId]);
      expect(data.map((message) => message.channel)).toEqual(['in_app', 'in_app']);
      expect(data.every((message) => message.status === 'sent' && typeof message._id === 'string')).toBe(true);
      // Another secret does not verify them.
      expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, receiver.received[0])).toThrow();
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('a read through the inbox sends message.read', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.read'] });
      const messageId = await deliver(t, workflowId, 'wh-ada', 2);
      const token = await sessionToken(app, 'wh-ada');
      const read = await fetch(`${app.url}/v1/inbox/notifications/${messageId}/read`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(200);
      await waitFor(() => receiver.received.length >= 1, { description: 'message.read' });
      const event = verify(endpoint.secret, receiver.received[0]) as Received['event'];
      expect(event.type).toBe('message.read');
      expect(event.data).toMatchObject({ _id: messageId, read: true, seen: true });
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('retries a 500 with the same webhook-id, lists the attempts, and replays a delivery', async () => {
    const receiver = await startReceiver();
    try {
      receiver.script.push({ status: 500 });
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      await deliver(t, workflowId, 'wh-bob', 3);
      await waitFor(() => receiver.received.length >= 2, { timeoutMs: 15_000, description: 'the retry after 5 s' });
      const [first, second] = receiver.received;
      expect(first.headers['webhook-id']).toBe(second.headers['webhook-id']);
      expect(verify(endpoint.secret, second)).toEqual(verify(endpoint.secret, first));
      const page = await t.api('get', `/v1/webhook-endpoints/${endpoint._id}/deliveries`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.data[0]).toMatchObject({
        eventType: 'message.sent',
        status: 'succeeded',
        attempts: 2,
        lastStatusCode: 200,
        nextAttemptAt: null,
      });
      const replay = await t.api(
        'post',
        `/v1/webhook-endpoints/${endpoint._id}/deliveries/${page.body.data[0]._id}/replay`,
      );
      expect(replay.status).toBe(201);
      await waitFor(() => receiver.received.length >= 3, { description: 'the replay' });
      expect(receiver.received[2].headers['webhook-id']).toBe(first.headers['webhook-id']);
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('after a rotation both secrets verify the events for the overlap', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      const rotated = await t.api('post', `/v1/webhook-endpoints/${endpoint._id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
      await deliver(t, workflowId, 'wh-ada', 4);
      await waitFor(() => receiver.received.length >= 1, { description: 'message.sent' });
      const [request] = receiver.received;
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verify(endpoint.secret, request)).toMatchObject({ type: 'message.sent' });
      expect(verify(rotated.body.secret as string, request)).toMatchObject({ type: 'message.sent' });
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('a disabled endpoint receives nothing; a 410 disables an endpoint', async () => {
    const off = await startReceiver();
    const gone = await startReceiver();
    const control = await startReceiver();
    try {
      const disabled = await createEndpoint(t, { url: off.url, eventTypes: ['message.sent'], enabled: false });
      gone.script.push({ status: 410 });
      const goneEndpoint = await createEndpoint(t, { url: gone.url, eventTypes: ['message.sent'] });
      const controlEndpoint = await createEndpoint(t, { url: control.url, eventTypes: ['message.sent'] });
      await deliver(t, workflowId, 'wh-ada', 5);
      await waitFor(() => control.received.length >= 1 && gone.received.length >= 1, { description: 'both sends' });
      await waitFor(
        async () => (await t.api('get', `/v1/webhook-endpoints/${goneEndpoint._id}`)).body.enabled === false,
        { description: 'the 410 endpoint turned off' },
      );
      const after410 = (await t.api('get', `/v1/webhook-endpoints/${goneEndpoint._id}`)).body;
      expect(after410.disabledReason).toBe('The endpoint answered HTTP 410 Gone');
      await deliver(t, workflowId, 'wh-ada', 6);
      await waitFor(() => control.received.length >= 2, { description: 'the second send to the control' });
      expect(off.received).toHaveLength(0);
      expect(gone.received).toHaveLength(1);
      for (const id of [disabled._id, goneEndpoint._id, controlEndpoint._id])
        await t.api('delete', `/v1/webhook-endpoints/${id}`).expect(204);
    } finally {
      await Promise.all([off.close(), gone.close(), control.close()]);
    }
  });

  it('a hanging receiver does not delay another endpoint', async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    try {
      for (let i = 0; i < 3; i++) slow.script.push({ status: 200, delayMs: 6_000 });
      const slowEndpoint = await createEndpoint(t, { url: slow.url, eventTypes: ['message.sent'] });
      const fastEndpoint = await createEndpoint(t, { url: fast.url, eventTypes: ['message.sent'] });
      const started = Date.now();
      for (let n = 0; n < 3; n++) await deliver(t, workflowId, 'wh-bob', 10 + n);
      await waitFor(() => fast.received.length >= 3, { timeoutMs: 5_000, description: 'the fast endpoint' });
      expect(Date.now() - started).toBeLessThan(5_000);
      for (const id of [slowEndpoint._id, fastEndpoint._id])
        await t.api('delete', `/v1/webhook-endpoints/${id}`).expect(204);
    } finally {
      await Promise.all([slow.close(), fast.close()]);
    }
  });

  it('sends a burst to a slow receiver a few requests at a time, each event once', async () => {
    const receiver = await startReceiver();
    try {
      for (let i = 0; i < 40; i++) receiver.script.push({ status: 200, delayMs: 100 });
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      const to = Array.from({ length: 40 }, (_, i) => ({ subscriberId: `wh-burst-${i}` }));
      const started = Date.now();
      expect((await t.api('post', '/v1/events/trigger').send({ name: workflowId, to })).status).toBe(201);
      await waitFor(() => receiver.received.length >= 40, { timeoutMs: 20_000, description: '40 message.sent events' });
      // One at a time, 40 answers of 100 ms would take 4 s; eight at a time about half a second.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(receiver.maxInFlight()).toBeGreaterThan(1);
      expect(receiver.maxInFlight()).toBeLessThanOrEqual(8);
      expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(40);
      const recipients = receiver.received.map((request) => verify(endpoint.secret, request) as Received['event']);
      expect(new Set(recipients.map((event) => event.data._subscriberId)).size).toBe(40);
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('a burst of 700 to a slow receiver goes out once each, every delivery succeeded', async () => {
    const receiver = await startReceiver();
    try {
      for (let i = 0; i < 700; i++) receiver.script.push({ status: 200, delayMs: 10 });
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      const to = Array.from({ length: 700 }, (_, i) => ({ subscriberId: `wh-held-${i}` }));
      expect((await t.api('post', '/v1/events/trigger').send({ name: workflowId, to })).status).toBe(201);
      const ids = () => new Set(receiver.received.map((request) => String(request.headers['webhook-id'])));
      await waitFor(() => ids().size >= 700, { timeoutMs: 60_000, description: '700 distinct message.sent events' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(700);
      const deliveries = await t.api('get', `/v1/webhook-endpoints/${endpoint._id}/deliveries?limit=100`).expect(200);
      expect(deliveries.body.data.every((delivery: { status: string }) => delivery.status === 'succeeded')).toBe(true);
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('overlapping rounds share the bound; a failure mid-burst pauses the lane and loses nothing', async () => {
    const receiver = await startReceiver();
    try {
      // Answers of 100 ms, so rounds claimed while earlier ones are in flight overlap; the 280th answer fails.
      for (let i = 0; i < 300; i++) receiver.script.push({ status: i === 279 ? 500 : 200, delayMs: 100 });
      const endpoint = await createEndpoint(t, { url: receiver.url, eventTypes: ['message.sent'] });
      for (let batch = 0; batch < 3; batch++) {
        const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `wh-overlap-${batch * 100 + i}` }));
        expect((await t.api('post', '/v1/events/trigger').send({ name: workflowId, to })).status).toBe(201);
      }
      const ids = () => new Set(receiver.received.map((request) => String(request.headers['webhook-id'])));
      await waitFor(() => ids().size >= 300, { timeoutMs: 30_000, description: '300 distinct message.sent events' });
      expect(receiver.maxInFlight()).toBeLessThanOrEqual(8);
      // Only the failed attempt was repeated: what the paused rounds had not started went once, after the pause.
      await waitFor(() => receiver.received.length >= 301, { timeoutMs: 15_000, description: 'the retry' });
      expect(receiver.received).toHaveLength(301);
      expect(ids().size).toBe(300);
      const failed = String(receiver.received[279].headers['webhook-id']);
      expect(receiver.received.filter((request) => request.headers['webhook-id'] === failed)).toHaveLength(2);
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('sends workflow, preference and message-delete events committed with their change', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await createEndpoint(t, {
        url: receiver.url,
        eventTypes: [
          'workflow.created',
          'workflow.updated',
          'workflow.deleted',
          'preference.updated',
          'message.deleted',
        ],
      });
      const created = await t.api('post', '/v1/workflows').send({
        name: 'Webhook audit',
        steps: [{ template: { type: 'in_app', content: 'hi' } }],
      });
      expect(created.status).toBe(201);
      expect((await t.api('put', `/v1/workflows/${created.body._id}/status`).send({ active: false })).status).toBe(200);
      expect((await t.api('delete', `/v1/workflows/${created.body._id}`)).status).toBe(200);
      const preference = await t
        .api('patch', '/v2/subscribers/wh-bob/preferences')
        .send({ channels: { email: false } });
      expect(preference.status).toBe(200);
      const messageId = await deliver(t, workflowId, 'wh-bob', 20);
      expect((await t.api('delete', `/v1/messages/${messageId}`)).status).toBe(200);
      await waitFor(() => receiver.received.length >= 5, { description: 'five events' });
      const events = receiver.received.map((request) => verify(endpoint.secret, request) as Received['event']);
      expect(events.map((event) => event.type)).toEqual([
        'workflow.created',
        'workflow.updated',
        'workflow.deleted',
        'preference.updated',
        'message.deleted',
      ]);
      expect(events[0].data).toMatchObject({
        name: 'Webhook audit',
        workflowId: created.body.triggers[0].identifier,
      });
      expect(events[1].data).toMatchObject({ active: false });
      expect(events[3].data).toMatchObject({ level: 'global', channels: { email: false } });
      expect(events[4].data).toMatchObject({ _id: messageId });
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('sends subscriber.created and subscriber.deleted; the erasure removes stored events about the subscriber', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await createEndpoint(t, {
        url: receiver.url,
        eventTypes: ['subscriber.created', 'subscriber.deleted', 'message.sent'],
      });
      const created = await t
        .api('post', '/v2/subscribers')
        .send({ subscriberId: 'wh-erin', email: 'erin@example.com' });
      expect(created.status).toBe(201);
      // A session for a new subscriberId creates one too.
      await sessionToken(app, 'wh-fred');
      await deliver(t, workflowId, 'wh-erin', 30);
      await waitFor(() => receiver.received.length >= 3, { description: 'two creations and a message' });
      expect((await t.api('delete', '/v2/subscribers/wh-erin')).status).toBe(200);
      await waitFor(() => receiver.received.length >= 4, { description: 'the deletion' });
      const events = receiver.received.map((request) => verify(endpoint.secret, request) as Received['event']);
      expect(events.map((event) => [event.type, event.data.subscriberId ?? event.data._subscriberId])).toEqual([
        ['subscriber.created', 'wh-erin'],
        ['subscriber.created', 'wh-fred'],
        ['message.sent', events[2].data._subscriberId],
        ['subscriber.deleted', 'wh-erin'],
      ]);
      expect(events[0].data).toMatchObject({ email: 'erin@example.com' });
      expect(Object.keys(events[3].data).sort()).toEqual(['_id', 'subscriberId']);
      const stored = await t.db.execute(sql`SELECT body::text AS body FROM webhook_events`);
      expect(stored.rows.map((row) => String(row.body)).filter((body) => body.includes('erin@example.com'))).toEqual(
        [],
      );
      expect(stored.rows.some((row) => String(row.body).includes(String(events[2].data._id)))).toBe(false);
      await t.api('delete', `/v1/webhook-endpoints/${endpoint._id}`).expect(204);
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad endpoints with 422 and hides other environments', async () => {
    const bad = [
      { url: 'not a url' },
      { url: 'ftp://example.com/hook' },
      { url: 'https://user:pass@example.com/hook' },
      { url: 'https://example.com/hook', eventTypes: ['message.exploded'] },
      { url: 'https://example.com/hook', headers: { 'Webhook-Signature': 'v1,forged' } },
      { url: 'https://example.com/hook', headers: { 'X-Bad': 'a\r\nInjected: 1' } },
      { url: 'https://example.com/hook', headers: { 'X-Num': 5 } },
    ];
    for (const body of bad) {
      const res = await t.api('post', '/v1/webhook-endpoints').send(body);
      expect([res.status, body]).toEqual([422, body]);
      expect(res.body.statusCode).toBe(422);
    }
    const created: string[] = [];
    for (let i = 0; i < 20; i++) created.push((await createEndpoint(t, { url: `https://example.com/h${i}` }))._id);
    const over = await t.api('post', '/v1/webhook-endpoints').send({ url: 'https://example.com/h21' });
    expect(over.status).toBe(422);
    const foreign = await t.createForeignKey();
    expect((await t.api('get', `/v1/webhook-endpoints/${created[0]}`, foreign.apiKey)).status).toBe(404);
    expect((await t.api('delete', `/v1/webhook-endpoints/${created[0]}`, foreign.apiKey)).status).toBe(404);
    expect((await t.api('get', '/v1/webhook-endpoints', foreign.apiKey)).body.data).toEqual([]);
    expect((await t.api('get', '/v1/webhook-endpoints')).body.data).toHaveLength(20);
    for (const id of created) await t.api('delete', `/v1/webhook-endpoints/${id}`).expect(204);
  });
});
