import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { builtServiceDataDir, freePort, startService, waitForHealthy } from '../support/service-process.js';

/** The operator's HMAC switch and a CLI-created key, on the built service (embedded database). */
describe('inbox HMAC through the operator CLI', () => {
  const dataDir = builtServiceDataDir('ns-inbox-cli-');
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(process.cwd(), 'dist/apps/api/src/cli.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir() },
      encoding: 'utf8',
    });

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
