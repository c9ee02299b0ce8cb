import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { CredentialsCipher, newWebhookSecret } from '#application';
import { WebhookEndpointRepository, webhookDeliveries } from '#dal';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { statementsDuring } from '../support/statement-plans.js';
import { startEngine, type Engine } from './support/engine-harness.js';

/**
 * The message.sent events a worker's step commit writes are leased to that worker as they are
 * written and go to its endpoint's lane from memory: sent without a claim of the database rows.
 */
describe('workflow engine: webhook deliveries handed over by the commit that writes them', () => {
  let e: Engine;
  let receiver: Server;
  const received: string[] = [];
  let url: string;

  beforeAll(async () => {
    e = await startEngine();
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(String(request.headers['webhook-id']));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await e?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('sends each delivered message once, succeeded at its first attempt, with no claim', async () => {
    const endpoint = (await e.app
      .get(WebhookEndpointRepository)
      .create(
        e.auth,
        { url, description: null, eventTypes: ['message.sent'], enabled: true, headers: {} },
        e.app.get(CredentialsCipher).encrypt({ secret: newWebhookSecret() }),
        20,
      ))!;
    const workflow = await createWorkflow(e, { steps: [inApp('Hello {{subscriber.subscriberId}}')] });
    const subscribers = Array.from({ length: 30 }, (_, index) => `hand-over-${index}`);

    const claims = await statementsDuring(e.db, /^update "webhook_deliveries" set "leased_until"/i, async () => {
      const { transactionId } = await e.trigger({ name: workflow.identifier, to: subscribers });
      await e.settled(transactionId!);
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await settledDeliveries(endpoint.id)).length < subscribers.length)
        await new Promise((resolve) => setTimeout(resolve, 50));
    });

    const deliveries = await settledDeliveries(endpoint.id);
    expect(deliveries).toHaveLength(subscribers.length);
    expect(deliveries.every((delivery) => delivery.attempts === 1 && delivery.leasedUntil === null)).toBe(true);
    expect(new Set(received).size).toBe(subscribers.length);
    expect(received).toHaveLength(subscribers.length);
    expect(claims).toEqual([]);
  }, 60_000);

  async function settledDeliveries(endpointId: string) {
    return e.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'succeeded')));
  }
});
