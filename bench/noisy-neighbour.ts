import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { apiClient, createWorkflow, SUBSCRIBER_PREFIX, type ApiClient } from './database.js';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { ROOT, sleep } from './processes.js';
import { waitForDeliveries, warmUp } from './scenarios.js';

/** The quiet environment's paced in_app triggers per second. */
export const QUIET_RATE = 20;
/** Seconds the quiet load's messages may take beyond its sending before the wait gives up. */
const QUIET_WAIT_SECONDS = 60;
/** The noisy environment's chat triggers, one per subscriber, one every NOISY_INTERVAL_MS. */
const NOISY_TRIGGERS = 200;
const NOISY_INTERVAL_MS = 40;
/** Bound on the wait for every noisy job to end (each call hangs until the provider timeout, retried). */
const NOISY_DRAIN_SECONDS = 120;
const NOISY_SETUP_CONCURRENCY = 10;
/** libs/common's terminal job statuses (the bench builds apart from the libraries). */
const TERMINAL_STATUSES = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

export interface QuietRun {
  accepted: number;
  delivered: number;
  complete: boolean;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  firstError?: string;
}

export interface NoisyResult {
  rate: number;
  seconds: number;
  alone: QuietRun;
  withNoisy: QuietRun;
  noisyAccepted: number;
  /** The noisy environment's triggers without an ended job when the quiet load's wait ended. */
  noisyPendingAfterQuiet: number;
  /** Requests the silent webhook received (each hangs until the service gives up on it). */
  webhookCalls: number;
  noisyJobs: Record<string, number>;
  noisyEnded: boolean;
  /** From the first noisy trigger until every noisy job ended (or the wait gave up). */
  noisyEndSeconds: number;
  backlogDiscarded: boolean;
}

/** A chat webhook that takes every request and never answers. */
async function startSilentReceiver() {
  let received = 0;
  const server: Server = createServer(() => received++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        // Its held sockets would otherwise keep close() (and the bench) waiting.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function expectOk(res: Promise<Response>, what: string): Promise<void> {
  const answer = await res;
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${what} answered ${answer.status}: ${text.slice(0, 500)}`);
}

/** Runs `task` for 0..count-1, `concurrency` at a time. */
async function forEachLimited(count: number, concurrency: number, task: (n: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

/** A key for the Production environment, from the service's CLI against the deployment's database. */
async function productionKey(deployment: Deployment): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['dist/apps/api/src/cli.js', 'api-key', 'create', '--environment', 'Production'],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...deployment.env }, timeout: 60_000 },
  );
  const key = stdout.trim().split('\n').pop();
  if (!key) throw new Error('the CLI printed no API key');
  return key;
}

/** The noisy environment: a chat-webhook integration, a one-chat-step workflow, subscribers on the silent webhook. */
async function setUpNoisy(client: ApiClient, webhookUrl: string, workflow: string, subscriberIds: string[]) {
  await expectOk(
    client.request('POST', '/v1/integrations', { providerId: 'chat-webhook', channel: 'chat', credentials: {} }),
    'POST /v1/integrations',
  );
  await expectOk(
    client.request('POST', '/v1/workflows', {
      name: workflow,
      identifier: workflow,
      active: true,
      steps: [{ template: { type: 'chat', content: 'Order {{payload.orderId}}' } }],
    }),
    'POST /v1/workflows (chat)',
  );
  await expectOk(
    client.request('POST', '/v1/subscribers/bulk', {
      subscribers: subscriberIds.map((subscriberId) => ({ subscriberId })),
    }),
    'POST /v1/subscribers/bulk',
  );
  await forEachLimited(subscriberIds.length, NOISY_SETUP_CONCURRENCY, (n) =>
    expectOk(
      client.request('PATCH', `/v1/subscribers/${subscriberIds[n]}/credentials`, {
        providerId: 'chat-webhook',
        credentials: { webhookUrl },
      }),
      'PATCH /v1/subscribers/:id/credentials',
    ),
  );
}

/** Fires one trigger every `intervalMs` without waiting for answers; resolves once all answered. */
async function pacedTriggers(
  client: ApiClient,
  count: number,
  intervalMs: number,
  bodyFor: (n: number) => { transactionId: string } & Record<string, unknown>,
  /** Each accepted trigger's send time, filled in as answers arrive. */
  sentAt = new Map<string, number>(),
) {
  const answers: Promise<void>[] = [];
  let firstError: string | undefined;
  const startedAt = performance.now();
  for (let n = 0; n < count; n++) {
    const due = startedAt + n * intervalMs - performance.now();
    if (due > 0) await sleep(due);
    const body = bodyFor(n);
    const sent = Date.now();
    answers.push(
      expectOk(client.request('POST', '/v1/events/trigger', body), 'POST /v1/events/trigger').then(
        () => void sentAt.set(body.transactionId, sent),
        (error: unknown) => void (firstError ??= error instanceof Error ? error.message : String(error)),
      ),
    );
  }
  await Promise.all(answers);
  return { sentAt, firstError };
}

const percentile = (sorted: number[], q: number) =>
  sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/**
 * The quiet environment's paced in_app load, each trigger to its own subscriber; a trigger's latency
 * is its message row's created_at (PostgreSQL's now(), same machine clock) minus its Date.now() send time.
 */
async function quietLoad(
  deployment: Deployment,
  options: BenchOptions,
  workflow: string,
  firstSubscriber: number,
): Promise<QuietRun> {
  const runId = randomUUID().slice(0, 8);
  const startedAt = performance.now();
  const { sentAt, firstError } = await pacedTriggers(
    deployment.client,
    options.noisyDuration * QUIET_RATE,
    1000 / QUIET_RATE,
    (n) => ({
      name: workflow,
      to: `${SUBSCRIBER_PREFIX}${((firstSubscriber + n) % options.subscribers) + 1}`,
      transactionId: `bench-quiet-${runId}-${n}`,
      payload: { orderId: `quiet-${n}` },
    }),
  );
  const ids = [...sentAt.keys()];
  const environmentId = deployment.scope.environmentId;
  const count = async () => {
    const { rows } = await deployment.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messages WHERE environment_id = $1 AND transaction_id = ANY($2)',
      [environmentId, ids],
    );
    return rows[0].n;
  };
  const bounded = { ...options, deliveryTimeout: options.noisyDuration + QUIET_WAIT_SECONDS };
  const waited = await waitForDeliveries(count, ids.length, startedAt, bounded);
  const { rows } = await deployment.pool.query<{ transaction_id: string; at: number }>(
    `SELECT transaction_id, extract(epoch FROM created_at) * 1000 AS at
     FROM messages WHERE environment_id = $1 AND transaction_id = ANY($2)`,
    [environmentId, ids],
  );
  const latencies = rows.map((row) => Number(row.at) - (sentAt.get(row.transaction_id) ?? 0)).sort((a, b) => a - b);
  const round = (value?: number) => (value === undefined ? undefined : Math.round(value));
  return {
    accepted: ids.length,
    delivered: rows.length,
    complete: waited.complete,
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    maxMs: round(latencies.at(-1)),
    firstError,
  };
}

async function noisyJobStatuses(deployment: Deployment, environmentId: string): Promise<Record<string, number>> {
  const { rows } = await deployment.pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM jobs WHERE environment_id = $1 GROUP BY status',
    [environmentId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

const endedJobs = (statuses: Record<string, number>) =>
  TERMINAL_STATUSES.reduce((sum, status) => sum + (statuses[status] ?? 0), 0);

/**
 * Multi-tenant fairness end to end: the Development environment's paced in_app latency alone, then
 * while the Production environment's chat steps all hang on a webhook that never answers.
 */
export async function noisyNeighbour(deployment: Deployment, options: BenchOptions): Promise<NoisyResult> {
  const silent = await startSilentReceiver();
  try {
    const noisyKey = await productionKey(deployment);
    const noisyClient = apiClient(deployment.api.port, noisyKey);
    const { rows } = await deployment.pool.query<{ id: string }>(
      `SELECT id FROM environments WHERE name = 'Production' LIMIT 1`,
    );
    const noisyEnvironmentId = rows[0].id;
    const noisyWorkflow = 'bench-noisy-chat';
    const noisySubscribers = Array.from({ length: NOISY_TRIGGERS }, (_, n) => `bench-noisy-${n}`);
    await setUpNoisy(noisyClient, silent.url, noisyWorkflow, noisySubscribers);
    const quietWorkflow = 'bench-noisy-quiet';
    await createWorkflow(deployment.pool, deployment.scope, deployment.client, quietWorkflow);
    await warmUp(deployment, options);

    const quietTriggers = options.noisyDuration * QUIET_RATE;
    const alone = await quietLoad(deployment, options, quietWorkflow, 0);
    deployment.assertAlive();

    const noisyStartedAt = performance.now();
    const noisyAcceptedAt = new Map<string, number>();
    const noisySending = pacedTriggers(
      noisyClient,
      NOISY_TRIGGERS,
      NOISY_INTERVAL_MS,
      (n) => ({
        name: noisyWorkflow,
        to: noisySubscribers[n],
        transactionId: `bench-noisy-${randomUUID()}`,
        payload: { orderId: `noisy-${n}` },
      }),
      noisyAcceptedAt,
    );
    await sleep(1000);
    const withNoisy = await quietLoad(deployment, options, quietWorkflow, quietTriggers);
    // A's triggers accepted so far, fanned out or not, whose job has not ended.
    const noisyPendingAfterQuiet =
      noisyAcceptedAt.size - endedJobs(await noisyJobStatuses(deployment, noisyEnvironmentId));
    const noisySent = await noisySending;
    const noisyAccepted = noisySent.sentAt.size;
    if (noisyAccepted === 0) throw new Error(`no noisy trigger accepted: ${noisySent.firstError ?? 'no answer'}`);

    let noisyJobs = await noisyJobStatuses(deployment, noisyEnvironmentId);
    const deadline = noisyStartedAt + NOISY_DRAIN_SECONDS * 1000;
    while (endedJobs(noisyJobs) < noisyAccepted && performance.now() < deadline) {
      await sleep(500);
      noisyJobs = await noisyJobStatuses(deployment, noisyEnvironmentId);
    }
    const noisyEnded = endedJobs(noisyJobs) >= noisyAccepted;
    const noisyEndSeconds = (performance.now() - noisyStartedAt) / 1000;
    deployment.assertAlive();
    if (!noisyEnded || !withNoisy.complete) await deployment.discardBacklog();
    return {
      rate: QUIET_RATE,
      seconds: options.noisyDuration,
      alone,
      withNoisy,
      noisyAccepted,
      noisyPendingAfterQuiet,
      webhookCalls: silent.received(),
      noisyJobs,
      noisyEnded,
      noisyEndSeconds,
      backlogDiscarded: !noisyEnded || !withNoisy.complete,
    };
  } finally {
    await silent.close();
  }
}
