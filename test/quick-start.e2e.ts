import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  builtServiceDataDir,
  freePort,
  startService,
  waitForHealthy,
  waitForOutput,
} from './support/service-process.js';

/**
 * The README's quick start: the built service as `npm start` runs it, on its embedded defaults. CI
 * runs this file on the image's Node and again on the machine's.
 */
describe('quick start (embedded defaults)', () => {
  const dataDir = builtServiceDataDir('ns-quick-start-');

  it('boots on the embedded database, prints the key once, keeps data across a graceful restart', async () => {
    const port = await freePort();
    const first = startService({ DATA_DIR: dataDir() }, port);
    const bootMs = await waitForHealthy(first);
    // A first boot (migrations on the embedded database) takes ~14 s alone on a slow 2-core machine, and half as
    // long again while CI runs other test files beside it: the bound catches a boot gone wrong, not a slow day.
    expect(bootMs).toBeLessThan(30_000);
    const key = (await waitForOutput(first, /Development API key[^:]*: ([0-9a-f]+)/))[1];
    const headers = { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`http://127.0.0.1:${port}/v1/tenants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ identifier: 'kept', name: 'Survives restarts' }),
    });
    expect(created.status).toBe(201);

    const docs = await fetch(`http://127.0.0.1:${port}/api-docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');

    const started = Date.now();
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);

    // The operator CLI adds a Production key to the same database while the service is down.
    const cli = spawnSync(
      process.execPath,
      [join(process.cwd(), 'dist/apps/api/src/cli.js'), 'api-key', 'create', '--environment', 'Production'],
      {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir() },
        encoding: 'utf8',
      },
    );
    expect(cli.status).toBe(0);
    const productionKey = cli.stdout.trim();
    expect(productionKey).toMatch(/^[0-9a-f]{48}$/);

    const second = startService({ DATA_DIR: dataDir(), LOG_LEVEL: 'info' }, port);
    await waitForHealthy(second);
    expect(second.output()).not.toContain('Development API key');
    const kept = await fetch(`http://127.0.0.1:${port}/v1/tenants/kept`, {
      headers: { ...headers, 'x-request-id': 'follow-me' },
    });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { name: string }).name).toBe('Survives restarts');
    // Production is another environment: the new key works and sees none of Development's tenants.
    const production = await fetch(`http://127.0.0.1:${port}/v1/tenants/kept`, {
      headers: { Authorization: `ApiKey ${productionKey}` },
    });
    expect(production.status).toBe(404);
    expect(await second.stop('SIGTERM')).toBe(0);
    // JSON logs carry the request id of each request.
    const requestLine = second
      .output()
      .split('\n')
      .find((line) => line.includes('"reqId":"follow-me"'));
    expect(JSON.parse(requestLine!)).toMatchObject({
      msg: 'request completed',
      url: '/v1/tenants/kept',
      statusCode: 200,
    });
  });
});
