import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  builtServiceDataDir,
  freePort,
  startService,
  waitForHealthy,
  waitForOutput,
  type ServiceProcess,
} from '../support/service-process.js';

/** A first boot on a busy two-core machine took 25 s. */
const BOOT_TIMEOUT_MS = 60_000;

/** Runs the built CLI on a data directory (nothing inherited but PATH, so no DATABASE_URL). */
const cliOn =
  (dataDir: () => string) =>
  (...args: string[]) =>
    spawnSync(process.execPath, [join(process.cwd(), 'dist/apps/api/src/cli.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir() },
      encoding: 'utf8',
      timeout: 60_000,
    });

/** The operator's HMAC switch and a CLI-created key, on the built service (embedded database). */
describe('inbox HMAC through the operator CLI', () => {
  const dataDir = builtServiceDataDir('ns-inbox-cli-');
  const cli = cliOn(dataDir);

  it('`environment require-hmac on` makes sessions need a hash made with a key the CLI created', async () => {
    const created = cli('api-key', 'create', '--environment', 'Development');
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    const switched = cli('environment', 'require-hmac', 'on', '--environment', 'Development');
    expect(switched.status).toBe(0);
    expect(switched.stdout).toContain('require');
    expect(cli('environment', 'require-hmac', 'maybe', '--environment', 'Development').status).toBe(2);

    const port = await freePort();
    const service = startService({ DATA_DIR: dataDir() }, port);
    try {
      await waitForHealthy(service);
      const base = `http://127.0.0.1:${port}`;
      const me = await fetch(`${base}/v1/environments/me`, { headers: { Authorization: `ApiKey ${key}` } });
      const environment = (await me.json()) as { identifier: string; requireHmac: boolean };
      expect(environment.requireHmac).toBe(true);
      const session = (subscriberHash?: string) =>
        fetch(`${base}/v1/inbox/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            applicationIdentifier: environment.identifier,
            subscriber: { subscriberId: 'cli-sub' },
            subscriberHash,
          }),
        });
      expect((await session()).status).toBe(401);
      expect((await session(createHmac('sha256', key).update('cli-sub').digest('hex'))).status).toBe(201);
    } finally {
      await service.stop('SIGTERM');
    }
    expect(cli('environment', 'require-hmac', 'off', '--environment', 'Development').status).toBe(0);
  });
});

/**
 * The CLI beside a running embedded service: it must reach the service's database through the
 * service's port, because a second PGlite on the same files sees none of the service's writes (and
 * the service none of its own) and may corrupt them.
 */
describe('operator CLI while the embedded service runs', () => {
  const dataDir = builtServiceDataDir('ns-inbox-cli-live-');
  const cli = cliOn(dataDir);
  let service: ServiceProcess;
  let base = '';
  let firstBootKey = '';
  let keyCreatedWhileRunning = '';

  beforeAll(async () => {
    const port = await freePort();
    service = startService({ DATA_DIR: dataDir() }, port);
    await waitForHealthy(service, BOOT_TIMEOUT_MS);
    base = `http://127.0.0.1:${port}`;
    firstBootKey = (await waitForOutput(service, /Development API key[^:]*: ([0-9a-f]+)/))[1];
  }, BOOT_TIMEOUT_MS);
  // Only when a test failed midway: the last one stops the service itself.
  afterAll(() => service.stop('SIGTERM'));

  const me = (key: string) => fetch(`${base}/v1/environments/me`, { headers: { Authorization: `ApiKey ${key}` } });

  it('`api-key create` prints a key the running service accepts at once', async () => {
    const created = cli('api-key', 'create', '--environment', 'Development');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    keyCreatedWhileRunning = created.stdout.trim();
    expect((await me(keyCreatedWhileRunning)).status).toBe(200);
  });

  it('`environment require-hmac on` makes the next hashless inbox session 401 without a restart', async () => {
    const { identifier } = (await (await me(firstBootKey)).json()) as { identifier: string };
    const session = (subscriberHash?: string) =>
      fetch(`${base}/v1/inbox/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          applicationIdentifier: identifier,
          subscriber: { subscriberId: 'live-sub' },
          subscriberHash,
        }),
      });
    expect((await session()).status).toBe(201);

    const switched = cli('environment', 'require-hmac', 'on', '--environment', 'Development');
    expect(switched.stderr).toBe('');
    expect(switched.status).toBe(0);
    expect((await session()).status).toBe(401);
    expect((await session(createHmac('sha256', firstBootKey).update('live-sub').digest('hex'))).status).toBe(201);
  });

  it('`environment retention` sets overrides the running service answers at once; `default` removes them', async () => {
    const set = cli(
      'environment',
      'retention',
      '--activity-days',
      '7',
      '--messages-days',
      '365',
      '--environment',
      'Development',
    );
    expect(set.stderr).toBe('');
    expect(set.status).toBe(0);
    expect(set.stdout).toBe(
      "Development: activity kept 7 days (this environment's), messages kept 365 days (this environment's)\n",
    );
    const shown = (await (await me(firstBootKey)).json()) as { retention: unknown };
    expect(shown.retention).toEqual({
      activityDays: 7,
      messagesDays: 365,
      activityDaysOverride: 7,
      messagesDaysOverride: 365,
    });

    const refused = cli('environment', 'retention', '--activity-days', '0', '--environment', 'Development');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--activity-days takes whole days from 1 to 3650, or default; got "0"');
    const reset = cli(
      'environment',
      'retention',
      '--activity-days',
      'default',
      '--messages-days',
      'default',
      '--environment',
      'Development',
    );
    expect(reset.stdout).toContain('activity kept 30 days (the default), messages kept 90 days (the default)');
  });

  it(
    'a second service on the same DATA_DIR refuses to start and says why',
    async () => {
      const second = startService({ DATA_DIR: dataDir() }, await freePort());
      const code = await second
        .waitForExit(BOOT_TIMEOUT_MS)
        .finally(() => second.stop('SIGKILL').catch(() => undefined));
      expect(code).not.toBe(0);
      expect(second.output()).toMatch(
        new RegExp(`DATA_DIR .* is in use by another process \\(pid ${service.child.pid}\\)`),
      );
      expect((await fetch(`${base}/health`)).status).toBe(200);
    },
    2 * BOOT_TIMEOUT_MS,
  );

  it(
    'after the service stops, the CLI works on the files, and what it wrote while the service ran is kept',
    async () => {
      expect(await service.stop('SIGTERM')).toBe(0);
      const created = cli('api-key', 'create', '--environment', 'Development');
      expect(created.status).toBe(0);
      expect(cli('environment', 'require-hmac', 'off', '--environment', 'Development').status).toBe(0);

      const port = await freePort();
      service = startService({ DATA_DIR: dataDir() }, port);
      await waitForHealthy(service, BOOT_TIMEOUT_MS);
      base = `http://127.0.0.1:${port}`;
      expect((await me(created.stdout.trim())).status).toBe(200);
      const kept = await me(keyCreatedWhileRunning);
      expect(kept.status).toBe(200);
      expect(((await kept.json()) as { requireHmac: boolean }).requireHmac).toBe(false);
      expect(await service.stop('SIGTERM')).toBe(0);
      expect(existsSync(join(dataDir(), 'running-service.json'))).toBe(false);
    },
    3 * BOOT_TIMEOUT_MS,
  );
});

describe('operator CLI when the service holding DATA_DIR does not answer', () => {
  const dataDir = builtServiceDataDir('ns-inbox-cli-mute-');
  const cli = cliOn(dataDir);

  it('refuses with the reason and exit code 1, without opening the database files', async () => {
    // A live pid (this test process) and a port nobody listens on: a service that hangs or is unreachable.
    const record = { pid: process.pid, port: await freePort() };
    writeFileSync(join(dataDir(), 'running-service.json'), JSON.stringify(record), { mode: 0o600 });
    // and the secrets such a service keeps beside it.
    writeFileSync(join(dataDir(), 'database.password'), 'a'.repeat(64), { mode: 0o600 });
    writeFileSync(join(dataDir(), 'encryption.key'), 'b'.repeat(64), { mode: 0o600 });
    const created = cli('api-key', 'create', '--environment', 'Development');
    expect(created.status).toBe(1);
    expect(created.stderr).toContain(`pid ${process.pid}`);
    expect(created.stderr).toContain(`127.0.0.1:${record.port}`);
    expect(existsSync(join(dataDir(), 'pgdata'))).toBe(false);
  });
});
