import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { createLogger, loadConfig } from '#common';
import { RecoverySweeper } from '#event-processing';
import { JobQueue } from '#event-processing/producer';
import { prepareRuntime } from '#api/runtime.js';
import { createServer } from '#api/server.js';
import { TEST_ENCRYPTION_KEY } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

/**
 * Each module lists the repositories it uses, so a provider missing from a module shows only when
 * that module is built. The other e2e files run ROLE=all; these boot the two roles a deployment
 * splits into, each with its own module set.
 */
describe('each role builds its module graph', () => {
  it.each(['api', 'worker'] as const)('ROLE=%s boots and shuts down', async (role) => {
    const database = await createTestDatabase();
    const config = loadConfig({
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'silent',
    });
    // Set after parsing: the configuration refuses a split role on the embedded database (two
    // processes cannot share it), and this test builds one role in one process.
    config.role = role;
    const runtime = await prepareRuntime(config, createLogger(config.logLevel), { loadDataDir: database.loadDataDir });
    try {
      const app = await createServer(runtime, { swaggerUi: false });
      await app.init();
      expect(app.get(JobQueue)).toBeInstanceOf(JobQueue);
      // The consumers exist in the worker role only.
      if (role === 'worker') expect(app.get(RecoverySweeper)).toBeInstanceOf(RecoverySweeper);
      else expect(() => app.get(RecoverySweeper)).toThrow();
      await app.close();
    } finally {
      await runtime.close();
      await database.drop();
    }
  });
});
