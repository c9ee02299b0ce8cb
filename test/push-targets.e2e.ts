import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const TOKENS = ['t-1', 't-2', 't-3', 't-4', 't-5', 't-6'];

/** Holds every request until all TOKENS' requests are in flight, then answers them all. */
async function startGatheringReceiver(): Promise<{ url: string; mostInFlight: () => number; close(): Promise<void> }> {
  const waiting: ServerResponse[] = [];
  let most = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      waiting.push(response);
      most = Math.max(most, waiting.length);
      if (waiting.length < TOKENS.length) return;
      for (const held of waiting.splice(0)) held.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`,
    mostInFlight: () => most,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A push step sends to all of a subscriber's device tokens at once: six calls that each answer only
 * when all six have arrived complete well within one provider timeout, where one after another would
 * time out.
 */
describe('push targets in parallel', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startGatheringReceiver>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_TIMEOUT_MS: '3000', PROVIDER_MAX_ATTEMPTS: '1' } });
    receiver = await startGatheringReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('every device token of the subscriber is called at once and gets its sent message', async () => {
    await t
      .api('post', '/v1/integrations')
      .send({ providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: receiver.url } })
      .expect(201);
    await t.api('post', '/v2/subscribers').send({ subscriberId: 'many-devices' }).expect(201);
    await t
      .api('patch', '/v1/subscribers/many-devices/credentials')
      .send({ providerId: 'push-webhook', credentials: { deviceTokens: TOKENS } })
      .expect(200);
    await t
      .api('post', '/v1/workflows')
      .send({
        name: 'Devices',
        identifier: 'devices',
        steps: [{ template: { type: 'push', title: 'T', content: 'C' } }],
      })
      .expect(201);

    const { transactionId, jobs } = await triggerAndSettle(t, { name: 'devices', to: 'many-devices' });
    expect(jobs.map((job) => job.status)).toEqual(['completed']);
    expect(receiver.mostInFlight()).toBe(TOKENS.length);
    const messages = await messagesOf(t, transactionId);
    expect(messages.map((message) => [message.deviceTokens?.[0], message.status]).sort()).toEqual(
      TOKENS.map((token) => [token, 'sent']),
    );
  });
});
