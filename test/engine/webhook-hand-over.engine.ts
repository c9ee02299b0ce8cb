import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { newId } from '#common';
import { CredentialsCipher, newWebhookSecret, WebhookOutbox } from '#application';
import { WebhookEndpointRepository, webhookDeliveries } from '#dal';
import { WebhookDeliveryProcessor } from '#event-processing';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { statementsDuring } from '../support/statement-plans.js';
import { startEngine, type Engine } from './support/engine-harness.js';

/**
 * The message.sent events a worker's step commit writes are leased to that worker as they are
 * written and go to its endpoint's lane from memory: sent without a claim of the database rows.
 */
interface Receiver {
  url: string;
  received: string[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 noting each webhook-id; it answers 204 after `delayMs`. */
async function startReceiver(delayMs = 0): Promise<Receiver> {
  const received: string[] = [];
  const delays = new Set<NodeJS.Timeout>();
  const answer = (response: ServerResponse) => response.writeHead(204).end();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['webhook-id']));
      if (delayMs > 0) delays.add(setTimeout(() => answer(response), delayMs));
      else answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: async () => {
      for (const delay of delays) clearTimeout(delay);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function createEndpoint(e: Engine, url: string) {
  return (await e.app
    .get(WebhookEndpointRepository)
    .create(
      e.auth,
      { url, description: null, eventTypes: ['message.sent'], enabled: true, headers: {} },
      e.app.get(CredentialsCipher).encrypt({ secret: newWebhookSecret() }),
      20,
    ))!;
}

const deliveriesTo = (e: Engine, endpointId: string) =>
  e.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

describe('workflow engine: webhook deliveries handed over by the commit that writes them', () => {
  let e: Engine;
  let receiver: Receiver;

  beforeAll(async () => {
    e = await startEngine();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await e?.close();
    await receiver?.close();
  });

  it('sends each delivered message once, succeeded at its first attempt, with no claim', async () => {
    const endpoint = await createEndpoint(e, receiver.url);
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
    expect(new Set(receiver.received).size).toBe(subscribers.length);
    expect(receiver.received).toHaveLength(subscribers.length);
    expect(claims).toEqual([]);
  }, 60_000);

  it('releases the deliveries a commit leased to it when its lanes stopped before the hand-over', async () => {
    const endpoint = await createEndpoint(e, receiver.url);
    const outbox = e.app.get(WebhookOutbox);
    const now = new Date();
    const event = { id: newId(), type: 'message.sent', body: JSON.stringify({ type: 'message.sent', data: {} }) };
    // Written while the lanes took hand-overs (leased to this process), dispatched once they had stopped.
    const recorded = await outbox.recordWanted(e.db, e.auth.environmentId, ['message.sent'], () => [event], now);
    // The endpoint of the test before this one wants message.sent too.
    expect(recorded.handOver.filter((send) => send.endpoint.id === endpoint.id)).toHaveLength(1);
    await e.app.get(WebhookDeliveryProcessor).beforeApplicationShutdown();
    await outbox.dispatch(e.auth.environmentId, recorded);

    const [delivery] = await deliveriesTo(e, endpoint.id);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'pending', attempts: 0, leasedUntil: null });
  });

  async function settledDeliveries(endpointId: string) {
    return e.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'succeeded')));
  }
});

describe('workflow engine: a stopping worker and the deliveries handed to it', () => {
  let e: Engine;
  let receiver: Receiver;

  beforeAll(async () => {
    // One request at a time, each answered after a second: the first commit's round is still starting
    // its requests when the next commits hand theirs over.
    e = await startEngine({ WEBHOOK_CONCURRENCY: '1' });
    receiver = await startReceiver(1_000);
  });
  afterAll(async () => {
    await e?.close();
    await receiver?.close();
  });

  it('puts back what it held and had not started: pending, unleased, no attempt counted', async () => {
    const endpoint = await createEndpoint(e, receiver.url);
    const workflow = await createWorkflow(e, { steps: [inApp('Hello {{subscriber.subscriberId}}')] });
    for (const batch of ['a', 'b', 'c']) {
      const to = Array.from({ length: 4 }, (_, index) => `stopping-${batch}-${index}`);
      const { transactionId } = await e.trigger({ name: workflow.identifier, to });
      await e.settled(transactionId!);
    }

    await e.app.get(WebhookDeliveryProcessor).beforeApplicationShutdown();

    const deliveries = await deliveriesTo(e, endpoint.id);
    expect(deliveries).toHaveLength(12);
    const sent = deliveries.filter((delivery) => delivery.status === 'succeeded');
    const putBack = deliveries.filter((delivery) => delivery.status === 'pending');
    // The first commit's round finished; the two held after it went back untried.
    expect(sent).toHaveLength(4);
    expect(receiver.received).toHaveLength(4);
    expect(putBack).toHaveLength(8);
    expect(putBack.every((delivery) => delivery.leasedUntil === null && delivery.attempts === 0)).toBe(true);
  }, 60_000);
});

describe('workflow engine: a lane that holds its most', () => {
  let e: Engine;
  let receiver: Receiver;

  beforeAll(async () => {
    e = await startEngine({ WEBHOOK_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '60000' });
    receiver = await startReceiver(60_000);
  });
  afterAll(async () => {
    // The hanging request fails when its connection closes: the lane pauses, and stopping puts back what it held.
    await receiver?.close();
    await e?.close();
  });

  it('holds a bounded number: beyond it, commits write their deliveries unleased for a claim', async () => {
    const endpoint = await createEndpoint(e, receiver.url);
    const workflow = await createWorkflow(e, { steps: [inApp('Hi {{subscriber.subscriberId}}')] });
    // The first commit's round waits on its first request: every later commit's deliveries wait in memory
    // until the lane holds its maximum (512); a commit writes at most 500, so 1,600 go past it.
    for (const batch of ['a', 'b', 'c', 'd']) {
      const to = Array.from({ length: 400 }, (_, index) => `held-${batch}-${index}`);
      const { transactionId } = await e.trigger({ name: workflow.identifier, to });
      await e.settled(transactionId!, { timeoutMs: 60_000 });
    }
    const deliveries = await deliveriesTo(e, endpoint.id);
    expect(deliveries).toHaveLength(1_600);
    const leased = deliveries.filter((delivery) => delivery.leasedUntil !== null);
    const unleased = deliveries.filter((delivery) => delivery.leasedUntil === null);
    expect(leased.length).toBeGreaterThan(512);
    expect(leased.length).toBeLessThan(512 + 2 * 500);
    expect(unleased.length).toBeGreaterThan(0);
    expect(unleased.every((delivery) => delivery.status === 'pending' && delivery.attempts === 0)).toBe(true);
  }, 120_000);
});
