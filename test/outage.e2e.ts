import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { connectDatabase } from '#dal';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

describe('database outage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ proxyDatabase: true });
  });
  afterAll(async () => {
    if (!stopped) await t?.close();
  });
  let stopped = false;

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

  it("gives a transaction's connection back when its BEGIN meets a dead connection", async () => {
    // One slot: a leaked client would make every later query wait for the connection timeout.
    const { db, pool } = connectDatabase(t.runtime.databaseUrl, 1);
    try {
      await db.execute(sql`select 1`);
      // The cut destroys the sockets at once; the pool still holds the idle client, so BEGIN is sent on it.
      const cut = t.databaseProxy!.cut();
      await expect(db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow();
      await cut;
      await t.databaseProxy!.restore();
      const after = await db.execute(sql`select 1 as one`);
      expect(after.rows).toEqual([{ one: 1 }]);
      expect(pool.totalCount).toBe(1);
    } finally {
      await t.databaseProxy!.restore();
      await pool.end();
    }
  });
  it("stops gracefully within the service's 10 s shutdown deadline after the outage", async () => {
    // Every queue worker met the cut; one that waited out a long pause before fetching again would hold
    // the stop past the deadline, and the process would exit 1 instead of closing cleanly.
    const started = performance.now();
    stopped = true;
    await t.close();
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
