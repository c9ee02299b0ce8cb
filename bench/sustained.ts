import { randomUUID } from 'node:crypto';
import { countMessages, createWorkflow, settle, SUBSCRIBER_PREFIX } from './database.js';
import type { CpuUsage } from './cpu-usage.js';
import type { Deployment } from './deployment.js';
import { load, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { startPacedLoad, type PacedResult } from './paced-load.js';
import { feedLoad, readRss, seedFeedOnce, waitForDeliveries, warmUp, type PeakRss } from './scenarios.js';

const FEED_QUERY = 'page=0&limit=10';
/** The paced sender's connections and the answers it lets wait before it counts a send as skipped. */
const PACED_CONNECTIONS = 50;
const PACED_MAX_OUTSTANDING_SECONDS = 2;

type Recipients = 'existing' | 'new';

export interface SustainedRun {
  recipients: Recipients;
  /** The sender's side: 2xx count, accept rate and latency while the worker consumed. */
  accept: LoadResult;
  sendSeconds: number;
  delivered: number;
  complete: boolean;
  /** From the first send until the last accepted trigger's message row existed (or the wait ended). */
  endToEndSeconds: number;
  /** Accepted triggers whose message exists, per end-to-end second. */
  triggersPerSecond: number;
  /** From the end of sending until the last message row existed. */
  lagSeconds: number;
  backlogDiscarded: boolean;
  warmUpSeconds: number;
  rss: PeakRss;
  /** From the first send until the last message existed. */
  cpu: CpuUsage;
}

/** Waits until `expected` messages of the workflow exist; drops the queued rest when the wait gives up. */
async function drain(
  deployment: Deployment,
  options: BenchOptions,
  workflowId: string,
  expected: number,
  startedAt: number,
) {
  const waited = await waitForDeliveries(
    () => countMessages(deployment.pool, { workflowId }, deployment.scope.environmentId),
    expected,
    startedAt,
    options,
  );
  deployment.assertAlive();
  if (!waited.complete) await deployment.discardBacklog();
  return waited;
}

function triggerTo(recipients: Recipients, n: number, subscribers: number, runId: string): unknown {
  if (recipients === 'existing') return existingSubscriber(n, subscribers);
  const subscriberId = `bench-new-${runId}-${n}`;
  return { subscriberId, email: `${subscriberId}@bench.test` };
}

/** The n-th trigger's recipient among the seeded subscribers. */
const existingSubscriber = (n: number, subscribers: number) => `${SUBSCRIBER_PREFIX}${(n % subscribers) + 1}`;

/**
 * Triggers of `workflowName` to the seeded subscribers at `rate`/s on a fixed schedule (an open loop),
 * until stopped or, given `total`, until that many are sent.
 */
export function startPacedTriggers(
  deployment: Deployment,
  options: BenchOptions,
  workflowName: string,
  rate: number,
  total?: number,
) {
  return startPacedLoad({
    origin: deployment.client.baseUrl,
    path: '/v1/events/trigger',
    headers: deployment.client.headers,
    rate,
    connections: PACED_CONNECTIONS,
    maxOutstanding: rate * PACED_MAX_OUTSTANDING_SECONDS,
    total,
    bodyFor: (n) =>
      JSON.stringify({
        name: workflowName,
        to: existingSubscriber(n, options.subscribers),
        payload: { orderId: `paced-${n}` },
      }),
  });
}

/** The workflow a sustained run triggers. */
export const sustainedWorkflowName = (recipients: Recipients, runLabel = '') =>
  `bench-sustained-${recipients}${runLabel}`;

/**
 * Triggers (one in_app step) as fast as `connections` allow for `sustainedDuration` seconds with the
 * worker consuming, then the wait until every accepted trigger's message row exists: what a user
 * gets end to end. `new` puts a subscriber object never seen before in every trigger.
 */
export async function sustainedTriggers(
  deployment: Deployment,
  options: BenchOptions,
  recipients: Recipients,
  /** Tells this run's workflow apart when one deployment runs the scenario more than once. */
  runLabel = '',
  /** Prepares the run's workflow (by default the plain one-step in_app workflow). */
  prepareWorkflow = (name: string) => createWorkflow(deployment.pool, deployment.scope, deployment.client, name),
  /** Called as sending starts; what it returns is called once the run's deliveries are in. */
  onSending: (workflowId: string) => () => void = () => () => undefined,
): Promise<SustainedRun> {
  const name = sustainedWorkflowName(recipients, runLabel);
  const workflow = await prepareWorkflow(name);
  const runId = randomUUID().slice(0, 8);
  const bodyFor = (n: number) =>
    JSON.stringify({
      name,
      to: triggerTo(recipients, n, options.subscribers, runId),
      payload: { orderId: `sustained-${n}`, amount: 42, items: ['a', 'b'] },
    });
  const warmUpSeconds = await warmUp(deployment, options);
  const reset = deployment.resetPeakRss();
  const cpuWindow = deployment.cpuWindow();
  const startedAt = performance.now();
  const sent = onSending(workflow.id);
  const accept = await load({
    url: `${deployment.client.baseUrl}/v1/events/trigger`,
    method: 'POST',
    headers: deployment.client.headers,
    connections: options.connections,
    duration: options.sustainedDuration,
    bodyFor,
  }).catch((error: unknown) => {
    sent();
    throw error;
  });
  const sendSeconds = (performance.now() - startedAt) / 1000;
  deployment.assertAlive();
  if (accept.ok2xx === 0) throw new Error(`no trigger accepted: ${accept.firstError ?? 'no answer'}`);
  const waited = await drain(deployment, options, workflow.id, accept.ok2xx, startedAt).finally(sent);
  const cpu = cpuWindow.stop();
  const rss = readRss(deployment, reset);
  return {
    recipients,
    accept,
    sendSeconds,
    delivered: waited.delivered,
    complete: waited.complete,
    endToEndSeconds: waited.seconds,
    triggersPerSecond: Math.min(waited.delivered, accept.ok2xx) / waited.seconds,
    lagSeconds: waited.seconds - sendSeconds,
    backlogDiscarded: !waited.complete,
    warmUpSeconds,
    rss,
    cpu,
  };
}

export interface FeedUnderLoadResult {
  seededRows: number;
  /** Undefined when an earlier part of the run seeded them. */
  seedSeconds?: number;
  idle: LoadResult;
  underLoad: LoadResult;
  /** While the feed load and the paced triggers ran. */
  cpuUnderLoad: CpuUsage;
  sender: PacedResult;
  delivered: number;
  complete: boolean;
  /** From the sender's stop until the last accepted trigger's message row existed. */
  lagSeconds: number;
  backlogDiscarded: boolean;
}

/**
 * Feed page 0 over the seeded notifications, idle and then while triggers are sent end to end at
 * `feedLoadRate`/s (paced, worker consuming); afterwards the wait for those triggers' messages.
 */
export async function feedUnderLoad(deployment: Deployment, options: BenchOptions): Promise<FeedUnderLoadResult> {
  const seedSeconds = await seedFeedOnce(deployment, options);
  const name = 'bench-sustained-feed-load';
  const workflow = await createWorkflow(deployment.pool, deployment.scope, deployment.client, name);
  await warmUp(deployment, options);
  await settle(deployment.pool);
  const idle = await feedLoad(deployment, options, FEED_QUERY);

  const startedAt = performance.now();
  const sender = startPacedTriggers(deployment, options, name, options.feedLoadRate);
  const cpuWindow = deployment.cpuWindow();
  // The sender is stopped even when the feed load fails, so it never outlives the scenario.
  const underLoad = await feedLoad(deployment, options, FEED_QUERY).catch(async (error: unknown) => {
    await sender.stop();
    throw error;
  });
  const cpuUnderLoad = cpuWindow.stop();
  const sent = await sender.stop();
  const sendSeconds = (performance.now() - startedAt) / 1000;
  deployment.assertAlive();
  if (sent.ok2xx === 0) throw new Error(`no paced trigger accepted: ${sent.firstError ?? 'no answer'}`);
  const waited = await drain(deployment, options, workflow.id, sent.ok2xx, startedAt);
  return {
    seededRows: options.feedRows,
    seedSeconds,
    idle,
    underLoad,
    cpuUnderLoad,
    sender: sent,
    delivered: waited.delivered,
    complete: waited.complete,
    lagSeconds: waited.seconds - sendSeconds,
    backlogDiscarded: !waited.complete,
  };
}
