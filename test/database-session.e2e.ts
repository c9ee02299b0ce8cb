import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

/** What every connection of the service's pool runs with. */
describe('database sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('compile no statement with JIT, on every connection of the pool', async () => {
    // Several connections at once, so the pool opens more than the one the boot used.
    const clients = await Promise.all(Array.from({ length: 3 }, () => t.db.$client.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ jit: string }>('SHOW jit');
        expect(rows[0].jit).toBe('off');
      }
    } finally {
      for (const client of clients) client.release();
    }
  });
});
