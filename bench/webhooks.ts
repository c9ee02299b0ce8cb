import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { startPacedTriggers, sustainedTriggers, sustainedWorkflowName, type SustainedRun } from './sustained.js';

/** How long the events of the run with an endpoint may keep arriving after its last message. */
const EVENTS_GRACE_MS = 60_000;
/** The paced phase sends at this share of the events rate the sustained run reached. */
const PACED_SHARE = 0.5;
const PACED_SECONDS = 15;
/** The run with the endpoint has a workflow of its own, which the paced phase triggers too. */
const WEBHOOKS_RUN_LABEL = '-webhooks';

export interface WebhooksResult {
  /** The sustained end-to-end run (existing subscribers) with no endpoint, then with one for message.sent. */
  without: SustainedRun;
  withEndpoint: SustainedRun;
  /** message.sent events the receiver got, and those it should have (one per delivered message). */
  received: number;
  expected: number;
  /** From the first send of the run with the endpoint until its last event arrived. */
  eventsSeconds: number;
  eventsPerSecond: number;
  /** The event's own timestamp (the step's commit) to its arrival at the receiver. */
  latencyP50Ms?: number;
  latencyP99Ms?: number;
  duplicates: number;
  /** Then triggers paced at half that events rate (the receiver keeps up): their events' latency. */
  paced: PacedEvents;
}

interface PacedEvents {
  rate: number;
  accepted: number;
  received: number;
  latencyP50Ms?: number;
  latencyP99Ms?: number;
}

interface Receiver {
  url: string;
  arrivals: { id: string; at: number; timestamp: number }[];
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 that answers 204 at once and notes each event's arrival. */
async function startReceiver(): Promise<Receiver> {
  const arrivals: Receiver['arrivals'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      arrivals.push({ id: String(request.headers['webhook-id']), at, timestamp: Date.parse(event.timestamp) });
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/**
 * What webhooks cost and deliver: the sustained end-to-end run without an endpoint, then with one
 * fast local endpoint subscribed to message.sent (one event per delivered message), same deployment.
 */
export async function webhooks(deployment: Deployment, options: BenchOptions): Promise<WebhooksResult> {
  // Its own workflow, so the part runs in the deployment the sustained part used before it.
  const without = await sustainedTriggers(deployment, options, 'existing', '-no-webhooks');
  const receiver = await startReceiver();
  const created = await deployment.client.request('POST', '/v1/webhook-endpoints', {
    url: receiver.url,
    eventTypes: ['message.sent'],
  });
  if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${await created.text()}`);
  const endpoint = (await created.json()) as { _id: string };
  try {
    const startedAt = Date.now();
    const withEndpoint = await sustainedTriggers(deployment, options, 'existing', WEBHOOKS_RUN_LABEL);
    const expected = withEndpoint.delivered;
    const events = await arrivalsSince(receiver, startedAt, expected);
    // A loop, not Math.max(...): spreading some 125,000 arrivals overflows the call stack.
    const last = events.all.reduce((latest, arrival) => Math.max(latest, arrival.at), 0);
    const eventsSeconds = (last - startedAt) / 1000;
    const eventsPerSecond = events.distinct / eventsSeconds;
    const paced = await pacedEvents(deployment, options, receiver, eventsPerSecond * PACED_SHARE);
    return {
      without,
      withEndpoint,
      received: events.distinct,
      expected,
      eventsSeconds,
      eventsPerSecond,
      latencyP50Ms: events.latencyP50Ms,
      latencyP99Ms: events.latencyP99Ms,
      duplicates: events.all.length - events.distinct,
      paced,
    };
  } finally {
    await deployment.client.request('DELETE', `/v1/webhook-endpoints/${endpoint._id}`);
    await receiver.close();
  }
}

/**
 * Triggers to existing subscribers sent on a fixed schedule below what the webhook lane delivers, to the
 * workflow of the run with the endpoint; the latency of their events, from commit to the receiver.
 */
async function pacedEvents(
  deployment: Deployment,
  options: BenchOptions,
  receiver: Receiver,
  targetRate: number,
): Promise<PacedEvents> {
  const rate = Math.max(50, Math.round(targetRate / 50) * 50);
  const startedAt = Date.now();
  const sender = startPacedTriggers(deployment, options, sustainedWorkflowName('existing', WEBHOOKS_RUN_LABEL), rate);
  await new Promise((resolve) => setTimeout(resolve, PACED_SECONDS * 1000));
  const sent = await sender.stop();
  const events = await arrivalsSince(receiver, startedAt, sent.ok2xx);
  return {
    rate,
    accepted: sent.ok2xx,
    received: events.distinct,
    latencyP50Ms: events.latencyP50Ms,
    latencyP99Ms: events.latencyP99Ms,
  };
}

/**
 * The events of triggers sent from `since` on, once `expected` distinct ones arrived (or the grace
 * ended), with their commit → receiver latency.
 */
async function arrivalsSince(receiver: Receiver, since: number, expected: number) {
  const deadline = Date.now() + EVENTS_GRACE_MS;
  const arrived = () => receiver.arrivals.filter((arrival) => arrival.timestamp >= since);
  while (new Set(arrived().map((arrival) => arrival.id)).size < expected && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const all = arrived();
  const latencies = all.map((arrival) => arrival.at - arrival.timestamp).sort((a, b) => a - b);
  return {
    all,
    distinct: new Set(all.map((arrival) => arrival.id)).size,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
  };
}
