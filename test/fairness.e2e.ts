import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import { createWorkflow, detailsOf, inApp, jobsOf } from './support/engine-fixtures.js';
import { startStalledReceiver, type StalledReceiver } from './support/receivers.js';
import { waitFor } from './support/wait.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Slots of the worker; one environment gets half of them (the default share). */
const WORKER_CONCURRENCY = 4;
const PROVIDER_TIMEOUT_MS = 500;
const NOISY_TRIGGERS = 24;
const QUIET_TRIGGERS = 20;
/**
 * B's slowest delivery under A's load, with room for a busy 2-core machine (without the lanes B waited
 * 9 s on the server pass). The embedded database makes each queue hop wait for a 200 ms poll (it cannot
 * wake a worker), so its latencies are several times the server pass's.
 */
const QUIET_MAX_LIMIT_MS = process.env.DATABASE_URL ? 2_000 : 5_000;
/**
 * Room for the machine in the relative bound. On the embedded database the same polls make a latency a
 * multiple of them: allow two (fan-out, step). On the server the test files running beside this one add
 * up to a few hundred ms to a baseline p90 of 50–80 ms (302 ms against a bound of 258 in one CI run);
 * without the lanes B waits seconds (9 s), so 250 ms of room still tells the two apart. The bench's `noisy` part measures the pace alone on the machine.
 */
const LATENCY_SLACK_MS = process.env.DATABASE_URL ? 250 : 400;
/** A's jobs wait for their turn longer than this, so a worker's /health turns degraded. */
const DEGRADED_WAIT_MS = 3_000;

const isTerminal = (status: string) => TERMINAL_JOB_STATUSES.includes(status as JobStatus);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * B's latencies against its own baseline. Of 20 samples the p99 is the slowest one, which a single
 * pause of the machine (CI runs other test files beside this one) decides: the relative bound is on the
 * p90, the slowest sample has the absolute bound. The benchmark (`npm run bench -- --parts=noisy`)
 * measures B's p99 over enough samples.
 */
function expectQuietPace(baseline: number[], loaded: number[]): void {
  expect(Math.max(...loaded)).toBeLessThanOrEqual(QUIET_MAX_LIMIT_MS);
  expect(percentile(loaded, 90)).toBeLessThanOrEqual(2 * percentile(baseline, 90) + LATENCY_SLACK_MS);
}

const latencySummary = (baseline: number[], loaded: number[]) => ({
  baseline: { p50: percentile(baseline, 50), p90: percentile(baseline, 90), max: Math.max(...baseline) },
  loaded: { p50: percentile(loaded, 50), p90: percentile(loaded, 90), max: Math.max(...loaded) },
});

/**
 * The noisy neighbour: environment A's chat steps all hang until the provider timeout, environment
 * B sends in-app notifications meanwhile. A holds at most its share of the worker's slots, so B's
 * deliveries keep their pace while A's jobs are still pending.
 */
describe('fair scheduling between environments (noisy neighbour)', () => {
  let t: TestApp;
  let silent: StalledReceiver;
  let failing: StalledReceiver;
  let noisyKey: string;
  let noisyEnvironmentId: string;
  let quietWorkflow: string;

  beforeAll(async () => {
    [t, silent] = await Promise.all([
      startTestApp({
        env: {
          WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
          PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
          PROVIDER_MAX_ATTEMPTS: '2',
          PROVIDER_BACKOFF_MS: '100',
          // The lanes alone: an open circuit would stop A's calls to the hanging webhook (test/circuit-breaker.e2e.ts).
          PROVIDER_BREAKER_FAILURES: '0',
          WORKER_DEGRADED_WAIT_MS: String(DEGRADED_WAIT_MS),
        },
      }),
      startStalledReceiver(),
    ]);
    failing = await startStalledReceiver({ answerAfterMs: PROVIDER_TIMEOUT_MS / 2, status: 500 });
    const noisy = await t.createKeyFor('Production');
    [noisyKey, noisyEnvironmentId] = [noisy.apiKey, noisy.environment.id];
    await t
      .api('post', '/v1/integrations', noisyKey)
      .send({ providerId: 'chat-webhook', channel: 'chat', credentials: {} })
      .expect(201);
    for (const [subscriberId, webhookUrl] of [
      ['noisy-sub', `${silent.url}/chat`],
      ['failing-sub', `${failing.url}/chat`],
    ]) {
      await t.api('post', '/v2/subscribers', noisyKey).send({ subscriberId }).expect(201);
      await t
        .api('patch', `/v1/subscribers/${subscriberId}/credentials`, noisyKey)
        .send({ providerId: 'chat-webhook', credentials: { webhookUrl } })
        .expect(200);
    }
    await t
      .api('post', '/v1/workflows', noisyKey)
      .send({ name: 'Noisy', identifier: 'noisy', steps: [{ template: { type: 'chat', content: 'hi' } }] })
      .expect(201);
    quietWorkflow = (await createWorkflow(t, { steps: [inApp('Hello')] })).identifier;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), silent?.close(), failing?.close()]);
  });

  /** Milliseconds from each of B's triggers (one after another) to its in-app job's end. */
  const quietLatencies = async (count: number): Promise<number[]> => {
    const latencies: number[] = [];
    for (let index = 0; index < count; index++) {
      const started = Date.now();
      const res = await t
        .api('post', '/v1/events/trigger')
        .send({ name: quietWorkflow, to: `quiet-${index % 3}`, payload: {} })
        .expect(201);
      await waitFor(
        async () => {
          const rows = await jobsOf(t, res.body.transactionId as string);
          return rows.length > 0 && rows.every((row) => row.status === 'completed');
        },
        { timeoutMs: 30_000, intervalMs: 10, description: "B's in-app job to complete" },
      );
      latencies.push(Date.now() - started);
      if (process.env.FAIRNESS_TRACE) console.log(`B ${index}: ${Date.now() - started} ms`);
    }
    return latencies;
  };

  it("B's in-app deliveries keep their pace while A's chat calls hang; every one of A's messages ends with its details", async () => {
    const baseline = await quietLatencies(QUIET_TRIGGERS);

    const noisy: string[] = [];
    for (let index = 0; index < NOISY_TRIGGERS; index++) {
      const res = await t
        .api('post', '/v1/events/trigger', noisyKey)
        .send({ name: 'noisy', to: 'noisy-sub', payload: { index } })
        .expect(201);
      noisy.push(res.body.transactionId as string);
    }
    await waitFor(() => silent.received() >= 2, { timeoutMs: 10_000, description: "A's chat calls to hang" });
    const loaded = await quietLatencies(QUIET_TRIGGERS);
    const noisyJobs = async () => (await Promise.all(noisy.map((id) => jobsOf(t, id)))).flat();
    const pendingAfter = (await noisyJobs()).filter((row) => !isTerminal(row.status)).length;

    const summary = { ...latencySummary(baseline, loaded), noisyPendingAfter: pendingAfter };
    console.log(`quiet environment latency (ms): ${JSON.stringify(summary)}`);
    expect(pendingAfter).toBeGreaterThan(0);
    expectQuietPace(baseline, loaded);

    // The wait is visible: A's jobs have waited past WORKER_DEGRADED_WAIT_MS, still 200.
    // (B may finish before A's waits pass the threshold on a fast machine: A's backlog takes about 12 s.)
    let health = await t.http.get('/health');
    await waitFor(
      async () => {
        health = await t.http.get('/health');
        return health.body.status === 'degraded';
      },
      { timeoutMs: 15_000, intervalMs: 250, description: '/health to turn degraded' },
    );
    expect(health.status).toBe(200);
    expect(health.body.queueWaitMs).toBeGreaterThan(DEGRADED_WAIT_MS);
    const metrics = (await t.http.get('/metrics')).text;
    // B's in-app steps run in the process that fanned them out; its triggers' fan-outs wait in the queue.
    const quietWaits = new RegExp(
      `queue_wait_seconds_count\\{queue="trigger-events",environment="${t.environment.id}"\\} (\\d+)`,
    ).exec(metrics);
    expect(Number(quietWaits?.[1])).toBeGreaterThanOrEqual(2 * QUIET_TRIGGERS);
    // A's slots in use: at most its share, half of WORKER_CONCURRENCY.
    expect(metrics).toMatch(
      new RegExp(`queue_environment_slots\\{queue="step-jobs",environment="${noisyEnvironmentId}"\\} [0-2]`),
    );

    // A's jobs all end: each chat call times out twice, and the step fails with its details.
    await waitFor(async () => (await noisyJobs()).every((row) => isTerminal(row.status)), {
      timeoutMs: 120_000,
      intervalMs: 250,
      description: "A's jobs to end",
    });
    const ended = await noisyJobs();
    expect(ended).toHaveLength(NOISY_TRIGGERS);
    expect(ended.map((row) => row.status)).toEqual(Array(NOISY_TRIGGERS).fill('failed'));
    for (const row of ended) {
      const details = await detailsOf(t, row.id);
      expect(details.some((detail) => detail.status === 'Failed')).toBe(true);
    }
    // Nothing waits any more: /health is ok again once the last long wait is 5 s old.
    await waitFor(async () => (await t.http.get('/health')).body.status === 'ok', {
      timeoutMs: 15_000,
      intervalMs: 500,
      description: '/health to be ok again',
    });
  }, 240_000);
  it("B's in-app deliveries keep their pace while A's endpoint answers 500 after half the provider timeout; A's jobs all fail with details", async () => {
    const baseline = await quietLatencies(QUIET_TRIGGERS);
    const noisy: string[] = [];
    for (let index = 0; index < NOISY_TRIGGERS; index++) {
      const res = await t
        .api('post', '/v1/events/trigger', noisyKey)
        .send({ name: 'noisy', to: 'failing-sub', payload: { index } })
        .expect(201);
      noisy.push(res.body.transactionId as string);
    }
    await waitFor(() => failing.received() >= 2, { timeoutMs: 10_000, description: "A's chat calls to fail" });
    const loaded = await quietLatencies(QUIET_TRIGGERS);
    const summary = latencySummary(baseline, loaded);
    console.log(`quiet environment latency beside a failing endpoint (ms): ${JSON.stringify(summary)}`);
    expectQuietPace(baseline, loaded);

    const noisyJobs = async () => (await Promise.all(noisy.map((id) => jobsOf(t, id)))).flat();
    await waitFor(async () => (await noisyJobs()).every((row) => isTerminal(row.status)), {
      timeoutMs: 120_000,
      intervalMs: 250,
      description: "A's jobs to end",
    });
    const ended = await noisyJobs();
    expect(ended.map((row) => row.status)).toEqual(Array(NOISY_TRIGGERS).fill('failed'));
    for (const row of ended.slice(0, 3)) {
      const details = (await detailsOf(t, row.id)).map((detail) => detail.detail);
      expect(details).toContainEqual(expect.stringMatching(/^Attempt 2 of 2 through .* failed: .*500/));
    }
  }, 240_000);
});
