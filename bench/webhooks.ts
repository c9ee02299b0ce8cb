import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { adoptChild } from './processes.js';
import type { ArrivalsAnswer, ArrivalsQuestion } from './webhook-receiver.js';
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
  arrivalsSince(since: number): Promise<ArrivalsAnswer>;
  close(): Promise<void>;
}

/** The receiver in a process of its own (webhook-receiver.ts): it answers 204 at once and notes each arrival. */
async function startReceiver(): Promise<Receiver> {
  const child = fork(fileURLToPath(new URL('./webhook-receiver.js', import.meta.url)), { stdio: 'inherit' });
  adoptChild(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the webhook receiver exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivalsSince: (since) =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send({ since } satisfies ArrivalsQuestion);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

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
    const eventsSeconds = (events.lastAt - startedAt) / 1000;
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
      duplicates: events.all - events.distinct,
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
async function arrivalsSince(receiver: Receiver, since: number, expected: number): Promise<ArrivalsAnswer> {
  const deadline = Date.now() + EVENTS_GRACE_MS;
  for (;;) {
    const arrivals = await receiver.arrivalsSince(since);
    if (arrivals.distinct >= expected || Date.now() >= deadline) return arrivals;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
