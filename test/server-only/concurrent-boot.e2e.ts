import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureBuilt, freePort, startService, waitForHealthy } from '../support/service-process.js';
import { emptyServerDatabase, withAdminClient } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

/** Runs only against a PostgreSQL server (the embedded database is single-process by design). */
describe('two instances booting at once on one empty PostgreSQL database', () => {
  const database = emptyServerDatabase('boot');
  beforeAll(async () => {
    ensureBuilt();
    await database.create();
  });
  afterAll(() => database.drop());

  it('both come up, migrations and first-boot seeding happen once', async () => {
    const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: 'b'.repeat(64) };
    const [portA, portB] = [await freePort(), await freePort()];
    const a = startService(env, portA);
    const b = startService(env, portB);
    try {
      await Promise.all([waitForHealthy(a, 30_000), waitForHealthy(b, 30_000)]);
      // The key line comes after /health answers: wait for the one that prints it.
      await waitFor(() => [a, b].some((service) => service.output().includes('Development API key')), {
        timeoutMs: 15_000,
        description: 'the development key line',
      });
      const printedKeys = [a.output(), b.output()].filter((output) => output.includes('Development API key')).length;
      expect(printedKeys).toBe(1);
      const counts = await withAdminClient(database.url, async (client) => ({
        organizations: (await client.query('SELECT count(*)::int AS n FROM organizations')).rows[0].n,
        environments: (await client.query('SELECT count(*)::int AS n FROM environments')).rows[0].n,
      }));
      expect(counts).toEqual({ organizations: 1, environments: 2 });
    } finally {
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    }
  });
});
