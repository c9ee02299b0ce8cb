import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ensureBuilt,
  freePort,
  startService,
  waitForHealthy,
  type ServiceProcess,
} from '../support/service-process.js';
import { databaseUrlFor, runPrefix, serverDatabaseUrl, withAdminClient } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const RELEASE = join(process.cwd(), 'release', 'dist');
const TRIGGERS = 3_000;
const CONCURRENCY = 50;
const API_KEY = 'scale-test-key-0123456789';

/** Reads a counter of one process's /metrics (0 when absent). */
async function metricSum(port: number, pattern: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => pattern.test(line))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/**
 * The production artefact (`npm run build:prod`, what the image contains) as 2 api + 2 worker
 * processes on one PostgreSQL database and one Redis: every recipient gets exactly one message and
 * both workers share the work.
 */
describe('horizontal scale on the production artefact', () => {
  const base = serverDatabaseUrl()!;
  const database = `${runPrefix()}_scale_${randomBytes(4).toString('hex')}`;
  const processes: ServiceProcess[] = [];
  let apiPorts: number[] = [];
  let workerPorts: number[] = [];

  beforeAll(async () => {
    // The tree's own build (`npm ci` makes it): rebuilding here would empty dist/dashboard under the browser
    // tests running beside this file.
    ensureBuilt();
    const build = spawnSync('npm', ['run', 'build:prod', '--', '--reuse-build'], {
      cwd: process.cwd(),
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('npm run build:prod failed');
    await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${database}`));
    const env = {
      DATABASE_URL: databaseUrlFor(base, database),
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `scale-${randomBytes(4).toString('hex')}`,
      ENCRYPTION_KEY: 'c'.repeat(64),
      API_KEY,
      RATE_LIMIT_ENABLED: 'false',
    };
    apiPorts = [await freePort(), await freePort()];
    workerPorts = [await freePort(), await freePort()];
    for (const port of apiPorts)
      processes.push(startService({ ...env, ROLE: 'api' }, port, join(RELEASE, 'apps/api/src/main.js')));
    for (const port of workerPorts)
      processes.push(startService({ ...env, ROLE: 'worker' }, port, join(RELEASE, 'apps/worker/src/main.js')));
    await Promise.all(processes.map((service) => waitForHealthy(service, 60_000)));
  }, 240_000);

  afterAll(async () => {
    for (const service of processes) expect(await service.stop()).toBe(0);
    await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  it(`${TRIGGERS} triggers over both api processes: one message per recipient, work shared by both workers`, async () => {
    const headers = { Authorization: `ApiKey ${API_KEY}`, 'Content-Type': 'application/json' };
    const workflow = await fetch(`http://127.0.0.1:${apiPorts[0]}/v1/workflows`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Scale',
        steps: [{ template: { type: 'in_app', content: 'Hello {{subscriber.subscriberId}}' } }],
      }),
    });
    expect(workflow.status).toBe(201);
    const identifier = ((await workflow.json()) as { triggers: { identifier: string }[] }).triggers[0].identifier;

    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < TRIGGERS; i = next++) {
          const port = apiPorts[i % apiPorts.length];
          const res = await fetch(`http://127.0.0.1:${port}/v1/events/trigger`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: identifier, to: `scale-${i}`, payload: { i } }),
          });
          statuses.push(res.status);
          await res.arrayBuffer();
        }
      }),
    );
    const failures = statuses.filter((status) => status !== 201);
    const errorLogs = processes
      .flatMap((service) =>
        service
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50')),
      )
      .slice(0, 3);
    expect({ failures, errorLogs }).toEqual({ failures: [], errorLogs: [] });

    const counts = async () =>
      withAdminClient(databaseUrlFor(base, database), async (client) => {
        const { rows } = await client.query<{ messages: number; recipients: number }>(
          `SELECT count(*)::int AS messages, count(DISTINCT subscriber_id)::int AS recipients FROM messages WHERE channel = 'in_app'`,
        );
        return rows[0];
      });
    await waitFor(async () => (await counts()).messages >= TRIGGERS, {
      timeoutMs: 180_000,
      intervalMs: 1_000,
      description: 'all messages',
    });
    expect(await counts()).toEqual({ messages: TRIGGERS, recipients: TRIGGERS });
    const open = await withAdminClient(
      databaseUrlFor(base, database),
      async (client) =>
        (
          await client.query(
            `SELECT count(*)::int AS n FROM jobs WHERE status NOT IN ('completed','failed','canceled','merged','skipped')`,
          )
        ).rows[0].n,
    );
    expect(open).toBe(0);

    // A 'run-step' queue entry carries a batch of step jobs, so the work each worker did is read from
    // the messages it stored (deliveries_total), not from the number of queue entries it took.
    const perWorker = await Promise.all(
      workerPorts.map((port) => metricSum(port, /^deliveries_total\{channel="in_app"/)),
    );
    for (const delivered of perWorker) expect(delivered).toBeGreaterThan(0);
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(TRIGGERS);
  }, 300_000);
});
