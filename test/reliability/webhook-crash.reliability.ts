import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '../support/wait.js';
import { Deployment } from './support/deployment.js';

/**
 * A worker killed with SIGKILL while a webhook is on the wire: the event is delivered after a restart,
 * and any second copy carries the same webhook-id. An event the api process causes wakes the worker's
 * lanes through the queue (the worker wakes its own in-process).
 */
describe('webhook delivery with real api and worker processes', () => {
  let deployment: Deployment;
  let server: Server;
  let url: string;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    // The first request is left unanswered: the worker is killed while it waits.
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (received.length > 1) response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    // A short time-out keeps the dead worker's lease (twice the time-out and 5 s) short.
    deployment = await Deployment.start({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await deployment?.stop();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  });

  it('kill -9 of the worker mid-delivery loses no event', async () => {
    const { workflow } = await deployment.seedTopic(1);
    const endpoint = await deployment.call('POST', '/v1/webhook-endpoints', { url, eventTypes: ['message.sent'] });
    expect(endpoint.status).toBe(201);
    const trigger = await deployment.call('POST', '/v1/events/trigger', { name: workflow, to: 'r-0', payload: {} });
    expect(trigger.status).toBe(201);
    await waitFor(() => received.length >= 1, { timeoutMs: 30_000, description: 'the first attempt' });
    deployment.worker.child.kill('SIGKILL');
    await deployment.worker.waitForExit();
    await deployment.startWorker();
    await waitFor(() => received.length >= 2, { timeoutMs: 90_000, intervalMs: 250, description: 'the resend' });
    const secret = endpoint.body.secret as string;
    const events = received.map((request) =>
      new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }),
    );
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(events[1]).toEqual(events[0]);
    expect(events[0]).toMatchObject({ type: 'message.sent', data: { transactionId: trigger.body.transactionId } });
    await waitFor(
      async () => {
        const page = await deployment.call('GET', `/v1/webhook-endpoints/${endpoint.body._id}/deliveries`);
        return page.body.data[0]?.status === 'succeeded';
      },
      { timeoutMs: 10_000, description: 'the delivery to read succeeded' },
    );
  });

  it('an event caused in the api process reaches the worker through the queue', async () => {
    const endpoint = await deployment.call('POST', '/v1/webhook-endpoints', {
      url,
      eventTypes: ['subscriber.created'],
    });
    expect(endpoint.status).toBe(201);
    const before = received.length;
    const created = await deployment.call('POST', '/v2/subscribers', { subscriberId: 'created-through-the-api' });
    expect(created.status).toBe(201);
    await waitFor(() => received.length > before, { timeoutMs: 30_000, description: 'the subscriber.created event' });
    expect(JSON.parse(received[before].body)).toMatchObject({
      type: 'subscriber.created',
      data: { subscriberId: 'created-through-the-api' },
    });
  });
});
