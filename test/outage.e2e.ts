import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

describe('database outage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ proxyDatabase: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 (never 500) while the database is unreachable, and recovers without a restart', async () => {
    expect((await t.http.get('/health')).status).toBe(200);
    await t.databaseProxy!.cut();

    const health = await t.http.get('/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'error', database: 'down' });

    // An uncached key needs the database: the answer is a 503 with the error body, not a 500.
    const res = await t.http.get('/v1/tenants').set('Authorization', 'ApiKey 00000000000000000000000000000000');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(res.headers['retry-after']).toBeDefined();

    const read = await t.api('get', '/v1/tenants');
    expect(read.status).toBe(503);

    await t.databaseProxy!.restore();
    await waitFor(async () => (await t.http.get('/health')).status === 200, {
      timeoutMs: 15_000,
      description: 'health to recover',
    });
    expect((await t.api('get', '/v1/tenants')).status).toBe(200);
  });
});
