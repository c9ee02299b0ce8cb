import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TERMINAL_JOB_STATUSES } from '#common';
import { sleep, waitFor } from '../support/wait.js';
import { Deployment } from './support/deployment.js';
import { PrivatePostgres } from './support/private-postgres.js';

const TRIGGERS = Number(process.env.RELIABILITY_OUTAGE_TRIGGERS ?? 200);
const RECIPIENTS_PER_TRIGGER = 10;
const SUBSCRIBERS = 500;
const OUTAGE_MS = 10_000;
const DELIVERY_TIMEOUT_MS = Number(process.env.RELIABILITY_DELIVERY_TIMEOUT_MS ?? 240_000);

interface Probe {
  what: string;
  status: number;
  ms: number;
}

/**
 * Scenario 3: PostgreSQL itself stopped for 10 s (`pg_ctl stop -m fast` on a cluster of the test's
 * own, then started again on the same port) under a running api and worker.
 */
describe('database outage under real api and worker processes', () => {
  let postgres: PrivatePostgres;
  let deployment: Deployment;
  let workflow: string;

  beforeAll(async () => {
    postgres = await PrivatePostgres.start();
    deployment = await Deployment.start({}, { privatePostgres: postgres });
    ({ workflow } = await deployment.seedTopic(SUBSCRIBERS));
  });
  afterAll(async () => {
    await deployment?.stop();
    await postgres?.destroy();
  });

  const recipientsOf = (index: number) =>
    Array.from({ length: RECIPIENTS_PER_TRIGGER }, (_, k) => `r-${(index * RECIPIENTS_PER_TRIGGER + k) % SUBSCRIBERS}`);

  const trigger = (transactionId: string, to: string[]) =>
    deployment.call('POST', '/v1/events/trigger', { name: workflow, to, transactionId, payload: {} });

  /** A refused or reset connection is status 0: the process is down, the worst answer of all. */
  const timed = async (what: string, run: () => Promise<{ status: number }>): Promise<Probe> => {
    const started = performance.now();
    const status = await run().then(
      (res) => res.status,
      () => 0,
    );
    return { what, status, ms: Math.round(performance.now() - started) };
  };

  const health = (port: number) => async () => ({ status: (await fetch(`http://127.0.0.1:${port}/health`)).status });

  it('answers 503 (never 500) while PostgreSQL is stopped, resumes without a restart, delivers every acknowledged trigger once', async () => {
    const apiPid = deployment.api.child.pid;
    const workerPid = deployment.worker.child.pid;

    // Acknowledged triggers; the cut comes once a tenth of their messages exist, mid-delivery.
    const acknowledged: string[] = [];
    for (let i = 0; i < TRIGGERS; i += 20) {
      const batch = Array.from({ length: Math.min(20, TRIGGERS - i) }, (_, k) => i + k);
      const results = await Promise.all(batch.map((index) => trigger(`outage-${index}`, recipientsOf(index))));
      results.forEach((res, k) => {
        expect(res.status).toBe(201);
        acknowledged.push(`outage-${batch[k]}`);
      });
    }
    const expectedBefore = acknowledged.length * RECIPIENTS_PER_TRIGGER;
    const delivered = () =>
      deployment.count(`SELECT count(*) AS n FROM messages WHERE transaction_id = ANY($1)`, [acknowledged]);
    await waitFor(async () => (await delivered()) >= expectedBefore / 10, {
      timeoutMs: 60_000,
      intervalMs: 20,
      description: 'a tenth of the messages',
    });
    // Triggers sent every 2 ms around the cut (some done before, some in flight, some after): each is
    // acknowledged (then it must be delivered) or a 503.
    const edge = Array.from({ length: 40 }, (_, k) =>
      sleep(2 * k).then(() => timed(`edge-${k}`, () => trigger(`edge-${k}`, recipientsOf(k)))),
    );
    await sleep(40);
    const deliveredAtCut = await delivered();
    await postgres.halt();
    const cutAt = Date.now();
    expect(deliveredAtCut).toBeLessThan(expectedBefore);
    const edgeAnswers = await Promise.all(edge);
    expect(edgeAnswers.filter((answer) => answer.status !== 201 && answer.status !== 503)).toEqual([]);
    const edgeAcknowledged = edgeAnswers.filter((answer) => answer.status === 201).map((answer) => answer.what);
    acknowledged.push(...edgeAcknowledged);

    const probes: Probe[] = [];
    for (let round = 0; Date.now() - cutAt < OUTAGE_MS; round++) {
      probes.push(
        ...(await Promise.all([
          timed('trigger', () => trigger(`during-${round}`, ['r-1'])),
          timed('read', () => deployment.call('GET', '/v2/subscribers/r-1')),
          timed('list', () => deployment.call('GET', '/v1/notifications?limit=10')),
          timed('api /health', health(deployment.api.port)),
          timed('worker /health', health(deployment.worker.port)),
        ])),
      );
      await sleep(250);
    }
    await postgres.resume();
    const restoredAt = Date.now();

    const summary = new Map<string, { statuses: Record<number, number>; maxMs: number }>();
    for (const probe of probes) {
      const entry = summary.get(probe.what) ?? { statuses: {}, maxMs: 0 };
      entry.statuses[probe.status] = (entry.statuses[probe.status] ?? 0) + 1;
      entry.maxMs = Math.max(entry.maxMs, probe.ms);
      summary.set(probe.what, entry);
    }
    // Every answer during the outage is a 503, none a 500 (or a hang: each probe came back).
    const wrong = probes.filter((probe) => probe.status !== 503);
    if (wrong.length) {
      throw new Error(
        `answers other than 503 during the outage: ${JSON.stringify(Object.fromEntries(summary))}\n` +
          `api (exit ${deployment.api.child.exitCode}): ${deployment.api.output().slice(-3_000)}\n` +
          `worker (exit ${deployment.worker.child.exitCode}): ${deployment.worker.output().slice(-3_000)}`,
      );
    }

    // Back without a restart: same processes, healthy, accepting and serving again.
    await waitFor(async () => (await health(deployment.api.port)()).status === 200, {
      timeoutMs: 30_000,
      description: 'api /health 200',
    });
    await waitFor(async () => (await health(deployment.worker.port)()).status === 200, {
      timeoutMs: 30_000,
      description: 'worker /health 200',
    });
    const recoveredMs = Date.now() - restoredAt;
    expect(deployment.api.child.pid).toBe(apiPid);
    expect(deployment.worker.child.pid).toBe(workerPid);
    expect(deployment.api.child.exitCode).toBeNull();
    expect(deployment.worker.child.exitCode).toBeNull();
    expect((await trigger('after-outage', recipientsOf(0))).status).toBe(201);
    acknowledged.push('after-outage');
    expect((await deployment.call('GET', '/v2/subscribers/r-1')).status).toBe(200);

    // Every acknowledged trigger delivered, exactly one in_app message per recipient.
    const expected = acknowledged.length * RECIPIENTS_PER_TRIGGER;
    await waitFor(async () => (await delivered()) >= expected, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      intervalMs: 500,
      description: `${expected} messages`,
    }).catch(async (error: Error) => {
      throw new Error(
        `${error.message}; delivered ${await delivered()}; ${JSON.stringify(await deployment.state('outage-0'))}`,
      );
    });
    const deliveredSeconds = (Date.now() - restoredAt) / 1000;
    await waitFor(async () => (await openWork(deployment, acknowledged)) === 0, {
      timeoutMs: 60_000,
      intervalMs: 500,
      description: 'jobs and events to finish',
    });
    const perRecipient = await deployment.sql.query<{ transaction_id: string; n: number }>(
      `SELECT transaction_id, count(DISTINCT subscriber_id)::int AS n FROM messages WHERE transaction_id = ANY($1) GROUP BY 1`,
      [acknowledged],
    );
    expect(perRecipient.rows.length).toBe(acknowledged.length);
    expect(perRecipient.rows.filter((row) => row.n !== RECIPIENTS_PER_TRIGGER)).toEqual([]);
    expect(await delivered()).toBe(expected);

    console.log(
      `database outage: ${TRIGGERS} triggers (${expectedBefore} messages) acknowledged, ${deliveredAtCut} delivered at the cut; ` +
        `${edgeAcknowledged.length}/${edge.length} triggers sent around the cut acknowledged, the others 503; ` +
        `${probes.length} probes during ${OUTAGE_MS / 1000} s: ${JSON.stringify(Object.fromEntries(summary))}; ` +
        `healthy ${recoveredMs} ms after the restore; all delivered exactly once ${deliveredSeconds.toFixed(1)} s after it`,
    );
  });
});

/** Jobs not in a terminal status and events not done, over the given transactions. */
async function openWork(deployment: Deployment, transactionIds: string[]): Promise<number> {
  const jobs = await deployment.count(
    'SELECT count(*) AS n FROM jobs WHERE transaction_id = ANY($1) AND NOT (status = ANY($2))',
    [transactionIds, TERMINAL_JOB_STATUSES],
  );
  const events = await deployment.count(
    `SELECT count(*) AS n FROM trigger_events WHERE transaction_id = ANY($1) AND status <> 'done'`,
    [transactionIds],
  );
  return jobs + events;
}
