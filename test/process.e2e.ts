import { chmodSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import {
  builtServiceDataDir,
  freePort,
  startService,
  waitForHealthy,
  waitForOutput,
  type ServiceProcess,
} from './support/service-process.js';

/** The built service as a real process, on its embedded defaults (what `npm start` runs). */
describe('service process (embedded defaults)', () => {
  const dataDir = builtServiceDataDir('ns-process-');

  it('exits non-zero with one line naming an invalid variable', async () => {
    for (const [name, value] of [
      ['PORT', 'not-a-port'],
      ['ROLE', 'janitor'],
      ['ROLE', 'worker'],
      ['REDIS_URL', 'http://x'],
      ['DATABASE_URL', 'nonsense'],
      ['RETENTION_ACTIVITY_DAYS', '0'],
      ['RETENTION_MESSAGES_DAYS', 'forever'],
      ['MAINTENANCE_INTERVAL_MINUTES', '1441'],
    ]) {
      const service = startService({ [name]: value, DATA_DIR: dataDir() }, 0);
      expect(await service.waitForExit()).toBe(1);
      expect(service.output()).toContain(name);
      expect(service.output().trim().split('\n')).toHaveLength(1);
    }
  });

  it('API_KEY guarantees that key for the Development environment', async () => {
    const port = await freePort();
    const apiKey = 'fixed-key-for-compose-0001';
    const service = startService({ DATA_DIR: join(dataDir(), 'with-key'), API_KEY: apiKey }, port);
    await waitForHealthy(service);
    const res = await fetch(`http://127.0.0.1:${port}/v1/tenants`, { headers: { Authorization: `ApiKey ${apiKey}` } });
    expect(res.status).toBe(200);
    expect(await service.stop()).toBe(0);
  });

  it('the embedded database lets in only its generated password, on 127.0.0.1; DATA_DIR is 0700, its secrets 0600', async () => {
    const dir = join(dataDir(), 'private', 'data'); // missing: the service creates it
    const mode = (path: string) => statSync(path).mode & 0o777;
    const first = startService({ DATA_DIR: dir, LOG_LEVEL: 'info' }, await freePort());
    let password: string;
    try {
      // A fresh DATA_DIR runs PGlite's initdb: 10-20 s on this shared machine.
      await waitForHealthy(first, 60_000);
      const started = await logLine(first, 'embedded PostgreSQL (PGlite) started');
      expect(started).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) });
      const port = started.port as number;
      password = readFileSync(join(dir, 'database.password'), 'utf8').trim();
      expect(password).toMatch(/^[0-9a-f]{64}$/);
      expect(first.output()).not.toContain(password);
      expect([
        mode(dir),
        mode(join(dir, 'database.password')),
        mode(join(dir, 'encryption.key')),
        mode(join(dir, 'pgdata')),
      ]).toEqual([0o700, 0o600, 0o600, 0o700]);

      for (const wrong of ['postgres', 'wrong-password', password.slice(0, -1), `${password}0`]) {
        await expect(embeddedLogin(port, wrong)).rejects.toMatchObject({ code: '28P01' });
      }
      await expect(embeddedLogin(port, undefined)).rejects.toThrow();
      await expect(embeddedLogin(port, '')).rejects.toThrow();
      expect(await embeddedLogin(port, password)).toEqual(['Development', 'Production']);

      // Not reachable on any other interface.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
      if (external) await expect(tcpConnect(external.address, port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await first.stop();
    }

    // A DATA_DIR left open by an older version is restricted again; the password is the one generated first.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'database.password'), 0o644);
    const second = startService({ DATA_DIR: dir, LOG_LEVEL: 'info' }, await freePort());
    try {
      await waitForHealthy(second, 60_000);
      expect([mode(dir), mode(join(dir, 'database.password'))]).toEqual([0o700, 0o600]);
      expect(readFileSync(join(dir, 'database.password'), 'utf8').trim()).toBe(password);
      const port = (await logLine(second, 'embedded PostgreSQL (PGlite) started')).port as number;
      expect(await embeddedLogin(port, password)).toEqual(['Development', 'Production']);
      await expect(embeddedLogin(port, 'wrong-password')).rejects.toMatchObject({ code: '28P01' });
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('logs follow one trigger from the request (reqId) to its delivery (transactionId)', async () => {
    const port = await freePort();
    const apiKey = 'trace-key-for-logs-0001';
    const service = startService({ DATA_DIR: join(dataDir(), 'trace'), API_KEY: apiKey, LOG_LEVEL: 'info' }, port);
    try {
      await waitForHealthy(service);
      await traceOneTrigger(service, apiKey);
    } finally {
      await service.stop();
    }
  });
});

/** The first JSON log line with this message (waited for: lines are written a little after they are logged). */
async function logLine(service: ServiceProcess, msg: string): Promise<Record<string, unknown>> {
  const [line] = await waitForOutput(service, new RegExp(`^.*"msg":"${msg.replace(/[()]/g, '\\$&')}".*$`, 'm'));
  return JSON.parse(line) as Record<string, unknown>;
}

/** Logs in to the embedded database as pg would with this password; returns the environments' names. */
async function embeddedLogin(port: number, password: string | undefined): Promise<string[]> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    password,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT name FROM environments ORDER BY name');
    return rows.map((row) => row.name);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function tcpConnect(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** Triggers one in-app workflow with a known x-request-id and follows its log lines to the delivery. */
async function traceOneTrigger(service: ServiceProcess, apiKey: string): Promise<void> {
  const port = service.port;
  const headers = { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' };
  const workflow = await fetch(`http://127.0.0.1:${port}/v1/workflows`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Traced',
      workflowId: 'traced',
      steps: [{ name: 'inbox', template: { type: 'in_app', content: 'hi' } }],
    }),
  });
  expect(workflow.status).toBe(201);
  const trigger = await fetch(`http://127.0.0.1:${port}/v1/events/trigger`, {
    method: 'POST',
    headers: { ...headers, 'x-request-id': 'trace-me' },
    body: JSON.stringify({ name: 'traced', to: 'traced-subscriber', payload: {} }),
  });
  expect(trigger.status).toBe(201);
  const { transactionId } = (await trigger.json()) as { transactionId: string };

  // Complete JSON lines only: the last chunk of output may end mid-line.
  const lines = () =>
    service
      .output()
      .split('\n')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  const deadline = Date.now() + 15_000;
  while (!lines().some((line) => line.msg === 'step finished') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));

  const traced = lines().filter((line) => line.transactionId === transactionId);
  expect(traced.find((line) => line.msg === 'event accepted')).toMatchObject({
    reqId: 'trace-me',
    status: 'processed',
    workflow: 'traced',
  });
  expect(traced.find((line) => line.msg === 'event fanned out')).toMatchObject({ recipients: 1 });
  const step = traced.find((line) => line.msg === 'step finished');
  expect(step).toMatchObject({ step: 'in_app', status: 'completed', subscriberId: 'traced-subscriber' });
  expect(step?.messageIds).toHaveLength(1);
}
