import { randomUUID } from 'node:crypto';
import { triggerBody, triggerEvent } from './ceilings.js';
import { countMessages, createWorkflow, seedFeed, SUBSCRIBER_PREFIX, TOPIC_KEY } from './database.js';
import type { CpuUsage } from './cpu-usage.js';
import type { Deployment } from './deployment.js';
import { load, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { sleep } from './processes.js';

const POLL_MS = 200;
const MAX_POLL_MS = 1_000;

export interface PeakRss {
  apiMb?: number;
  workerMb?: number;
  /** False when the kernel refused to reset the high-water mark: the peak then includes boot. */
  sincePhaseStart: boolean;
}

export function readRss(deployment: Deployment, reset: boolean): PeakRss {
  const { apiBytes, workerBytes } = deployment.peakRss();
  const mb = (bytes?: number) => (bytes === undefined ? undefined : Math.round((bytes / 1024 / 1024) * 10) / 10);
  return { apiMb: mb(apiBytes), workerMb: mb(workerBytes), sincePhaseStart: reset };
}

/** One request first, so a broken route fails loudly instead of as 20 s of non-2xx. */
async function expectStatus(
  deployment: Deployment,
  method: string,
  path: string,
  body: unknown,
  expected: number[],
): Promise<unknown> {
  const res = await deployment.client.request(method, path, body);
  const text = await res.text();
  if (!expected.includes(res.status))
    throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

export interface AcceptResult {
  single: LoadResult;
  bulk: LoadResult & { eventsPerSecond: number; eventsPerRequest: number };
  rss: PeakRss;
  workflowVia: string;
}

/**
 * Trigger accept, single and bulk. The fan-out queue is paused meanwhile, so this measures what
 * the api does per trigger (validate, store the event, enqueue) without worker work competing.
 */
export async function triggerAccept(deployment: Deployment, options: BenchOptions): Promise<AcceptResult> {
  const workflow = await createWorkflow(deployment.pool, deployment.scope, deployment.client, 'bench-accept');
  const url = `${deployment.client.baseUrl}/v1/events/trigger`;
  await deployment.pauseFanOut();
  try {
    const first = (await expectStatus(deployment, 'POST', '/v1/events/trigger', triggerEvent(1), [200, 201])) as {
      status?: string;
    };
    if (first.status !== 'processed') throw new Error(`trigger answered status ${first.status}, expected processed`);
    const reset = deployment.resetPeakRss();
    const single = await load({
      url,
      method: 'POST',
      headers: deployment.client.headers,
      body: triggerBody(1),
      connections: options.connections,
      duration: options.duration,
      warmUpSeconds: options.warmUp,
      runs: options.loadRuns,
    });
    deployment.assertAlive();

    const events = Array.from({ length: options.bulkSize }, (_, i) => triggerEvent(i + 1));
    await expectStatus(deployment, 'POST', '/v1/events/trigger/bulk', { events }, [200, 201]);
    const bulkLoad = await load({
      url: `${url}/bulk`,
      method: 'POST',
      headers: deployment.client.headers,
      body: JSON.stringify({ events }),
      connections: options.connections,
      duration: options.duration,
      warmUpSeconds: options.warmUp,
      runs: options.loadRuns,
    });
    deployment.assertAlive();
    const rss = readRss(deployment, reset);
    return {
      single,
      bulk: {
        ...bulkLoad,
        eventsPerRequest: options.bulkSize,
        eventsPerSecond: (bulkLoad.ok2xx * options.bulkSize) / bulkLoad.seconds,
      },
      rss,
      workflowVia: workflow.via,
    };
  } finally {
    await deployment.discardFanOutAndResume();
    await deployment.pool.query('DELETE FROM trigger_events WHERE environment_id = $1 AND workflow_id = $2', [
      deployment.scope.environmentId,
      workflow.id,
    ]);
  }
}

export interface DeliveryResult {
  expected: number;
  delivered: number;
  complete: boolean;
  /** From sending the first trigger until the last expected message row existed (or the wait ended). */
  seconds: number;
  deliveriesPerSecond: number;
  firstMessageSeconds?: number;
  sendSeconds?: number;
  /** Set when the wait ended early: the queued rest was dropped before the next scenario. */
  backlogDiscarded: boolean;
  /** How long the warm-up trigger before the measurement took to be delivered. */
  warmUpSeconds: number;
  accept?: LoadResult;
  rss: PeakRss;
  /** From the first send until the last message existed. */
  cpu: CpuUsage;
}

/**
 * Polls the count until it reaches `expected`, the deadline passes, or it stops moving. `expected`
 * may be a function answering undefined while triggers are still being sent (no stall then).
 */
export async function waitForDeliveries(
  count: () => Promise<number>,
  expectedNow: number | (() => number | undefined),
  startedAt: number,
  options: BenchOptions,
) {
  const expectedOf = typeof expectedNow === 'number' ? () => expectedNow : expectedNow;
  const deadline = startedAt + options.deliveryTimeout * 1000;
  let delivered = 0;
  let firstAt: number | undefined;
  let lastProgressAt = performance.now();
  for (;;) {
    const now = performance.now();
    const seen = await count();
    if (seen > 0 && firstAt === undefined) firstAt = now;
    if (seen !== delivered) lastProgressAt = now;
    delivered = seen;
    const expected = expectedOf();
    const stalled = expected !== undefined && now - lastProgressAt > options.stallTimeout * 1000;
    if ((expected !== undefined && delivered >= expected) || now > deadline || stalled) {
      const seconds = (now - startedAt) / 1000;
      return {
        delivered,
        complete: expected !== undefined && delivered >= expected,
        seconds,
        deliveriesPerSecond: delivered / seconds,
        firstMessageSeconds: firstAt === undefined ? undefined : (firstAt - startedAt) / 1000,
      };
    }
    await sleep(nextPollMs(delivered, expected, firstAt, now));
  }
}

/**
 * Every count is a query over the growing messages table on the database the service is using, so
 * once the total is known, polls are spaced by a quarter of the estimated time left (at least
 * POLL_MS, at most MAX_POLL_MS): frequent at the start and near the end, where they set the reported
 * times, rare in between.
 */
function nextPollMs(delivered: number, expected: number | undefined, firstAt: number | undefined, now: number) {
  // While triggers are still being sent the end is unknown, and the first poll after it must come soon.
  if (firstAt === undefined || delivered === 0 || expected === undefined) return POLL_MS;
  const perMs = delivered / Math.max(1, now - firstAt);
  const remainingMs = (expected - delivered) / perMs;
  return Math.min(MAX_POLL_MS, Math.max(POLL_MS, remainingMs / 4));
}

/**
 * One trigger to one subscriber, waited for until its message exists: the worker is then awake
 * (a Redis worker resumed from a paused queue idles for seconds first) and the paths are warm.
 */
export async function warmUp(deployment: Deployment, options: BenchOptions): Promise<number> {
  const workflows = await deployment.pool.query(
    'SELECT 1 FROM workflows WHERE environment_id = $1 AND identifier = $2',
    [deployment.scope.environmentId, 'bench-warmup'],
  );
  if (workflows.rowCount === 0)
    await createWorkflow(deployment.pool, deployment.scope, deployment.client, 'bench-warmup');
  const transactionId = `bench-warmup-${randomUUID()}`;
  const startedAt = performance.now();
  await expectStatus(
    deployment,
    'POST',
    '/v1/events/trigger',
    { name: 'bench-warmup', to: `${SUBSCRIBER_PREFIX}1`, transactionId },
    [200, 201],
  );
  const waited = await waitForDeliveries(
    () => countMessages(deployment.pool, { transactionId }, deployment.scope.environmentId),
    1,
    startedAt,
    options,
  );
  if (!waited.complete)
    throw new Error(`warm-up trigger not delivered within ${waited.seconds.toFixed(0)} s: is the worker consuming?`);
  return waited.seconds;
}

/** One trigger to the whole topic: seconds until every member has its in_app message. */
export async function topicFanOut(deployment: Deployment, options: BenchOptions): Promise<DeliveryResult> {
  await createWorkflow(deployment.pool, deployment.scope, deployment.client, 'bench-fanout');
  const warmUpSeconds = await warmUp(deployment, options);
  const transactionId = `bench-fanout-${randomUUID()}`;
  const reset = deployment.resetPeakRss();
  const cpuWindow = deployment.cpuWindow();
  const startedAt = performance.now();
  const body = {
    name: 'bench-fanout',
    to: [{ type: 'Topic', topicKey: TOPIC_KEY }],
    transactionId,
    payload: { orderId: 'fan-out' },
  };
  const answer = (await expectStatus(deployment, 'POST', '/v1/events/trigger', body, [200, 201])) as {
    status?: string;
  };
  if (answer.status !== 'processed') throw new Error(`topic trigger answered status ${answer.status}`);
  const waited = await waitForDeliveries(
    () => countMessages(deployment.pool, { transactionId }, deployment.scope.environmentId),
    options.topicSize,
    startedAt,
    options,
  );
  const cpu = cpuWindow.stop();
  deployment.assertAlive();
  const rss = readRss(deployment, reset);
  if (!waited.complete) await deployment.discardBacklog();
  return { expected: options.topicSize, ...waited, warmUpSeconds, backlogDiscarded: !waited.complete, rss, cpu };
}

/** Many single-recipient triggers to distinct subscribers: seconds until every one is delivered. */
export async function singleTriggers(deployment: Deployment, options: BenchOptions): Promise<DeliveryResult> {
  const workflow = await createWorkflow(deployment.pool, deployment.scope, deployment.client, 'bench-single');
  const warmUpSeconds = await warmUp(deployment, options);
  const reset = deployment.resetPeakRss();
  const cpuWindow = deployment.cpuWindow();
  const startedAt = performance.now();
  let accepted: number | undefined;
  // Polled while sending too, so the first delivery is timed from the start.
  const delivered = waitForDeliveries(
    () => countMessages(deployment.pool, { workflowId: workflow.id }, deployment.scope.environmentId),
    () => accepted,
    startedAt,
    options,
  );
  let accept: LoadResult | undefined;
  try {
    accept = await load({
      url: `${deployment.client.baseUrl}/v1/events/trigger`,
      method: 'POST',
      headers: deployment.client.headers,
      connections: options.singlesConnections,
      amount: options.singles,
      bodyFor: (n) =>
        JSON.stringify({
          name: 'bench-single',
          to: `${SUBSCRIBER_PREFIX}${(n % options.singles) + 1}`,
          payload: { orderId: `single-${n}` },
        }),
    });
  } finally {
    // Ends the poller at once when sending failed.
    accepted = accept?.ok2xx ?? 0;
  }
  const sendSeconds = (performance.now() - startedAt) / 1000;
  const waited = await delivered;
  const cpu = cpuWindow.stop();
  deployment.assertAlive();
  const rss = readRss(deployment, reset);
  if (!waited.complete) await deployment.discardBacklog();
  return {
    expected: accept.ok2xx,
    ...waited,
    sendSeconds,
    accept,
    warmUpSeconds,
    backlogDiscarded: !waited.complete,
    rss,
    cpu,
  };
}

export interface FeedResult {
  seededRows: number;
  /** Undefined when an earlier part of the run seeded them. */
  seedSeconds?: number;
  page0: LoadResult;
  page50: LoadResult;
  bySubscriber: LoadResult;
}

/**
 * The feed's `feedRows` notifications (each with one job), seeded once per deployment: the
 * sustained part and the feed part read the same rows. Returns the seconds seeding took, if it ran.
 */
export async function seedFeedOnce(deployment: Deployment, options: BenchOptions): Promise<number | undefined> {
  const { pool, scope } = deployment;
  const seeded = await pool.query('SELECT 1 FROM workflows WHERE environment_id = $1 AND identifier = $2', [
    scope.environmentId,
    'bench-feed',
  ]);
  if (seeded.rowCount) return undefined;
  const workflow = await createWorkflow(pool, scope, deployment.client, 'bench-feed');
  const seedStart = performance.now();
  await seedFeed(pool, scope, workflow.id, options.feedRows, options.subscribers);
  return (performance.now() - seedStart) / 1000;
}

/** `GET /v1/notifications?<query>` under the feed's load (connections, warm-up, runs). */
export async function feedLoad(deployment: Deployment, options: BenchOptions, query: string): Promise<LoadResult> {
  const path = `/v1/notifications?${query}`;
  const first = (await expectStatus(deployment, 'GET', path, undefined, [200])) as { data?: unknown[] };
  if (!Array.isArray(first.data) || first.data.length === 0) throw new Error(`GET ${path} returned no notifications`);
  return load({
    url: `${deployment.client.baseUrl}${path}`,
    headers: deployment.client.headers,
    connections: options.feedConnections,
    duration: options.feedDuration,
    warmUpSeconds: options.warmUp,
    runs: options.loadRuns,
  });
}

/** GET /v1/notifications over `feedRows` seeded notifications (each with one job). */
export async function feed(deployment: Deployment, options: BenchOptions): Promise<FeedResult> {
  const seedSeconds = await seedFeedOnce(deployment, options);
  const run = (query: string) => feedLoad(deployment, options, query);
  const page0 = await run('page=0&limit=10');
  const page50 = await run('page=50&limit=10');
  const bySubscriber = await run(
    `subscriberIds=${SUBSCRIBER_PREFIX}${Math.min(777, options.subscribers)}&page=0&limit=10`,
  );
  deployment.assertAlive();
  return { seededRows: options.feedRows, seedSeconds, page0, page50, bySubscriber };
}
