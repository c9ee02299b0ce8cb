import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { AdjustableClock, createLogger, loadConfig } from '#common';
import { EmbeddedPostgres, EnvironmentRepository, type Database, type Environment } from '#dal';
import { apiKeyPrefix, generateApiKey, hashApiKey, TenancyService } from '#application';
import { JobQueue } from '#event-processing';
import { prepareRuntime, type Runtime } from '#api/runtime.js';
import { createServer } from '#api/server.js';
import { LoadWorkflowsDirectoryUseCase } from '#api/workflows/use-cases/load-workflows-directory.use-case.js';
import { TcpProxy } from './tcp-proxy.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);

export interface TestApp {
  app: NestFastifyApplication;
  runtime: Runtime;
  db: Database;
  clock: AdjustableClock;
  queue: JobQueue;
  /** supertest bound to the running server. */
  http: TestAgent;
  /** A key of the Development environment and that environment. */
  apiKey: string;
  environment: Environment;
  /** Sends a request with the Development key. */
  api(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, key?: string): request.Test;
  /** A key of another organization's environment, for isolation tests. */
  createForeignKey(): Promise<{ apiKey: string; environment: Environment }>;
  /** A new key of the named environment of the default organization (e.g. Production). */
  createKeyFor(environmentName: string): Promise<{ apiKey: string; environment: Environment }>;
  databaseProxy?: TcpProxy;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables, e.g. { ROLE: 'api' }. */
  env?: Record<string, string>;
  /** Puts a TcpProxy between the service and its database (outage tests: `t.databaseProxy.cut()`). */
  proxyDatabase?: boolean;
  /** A database the test made (migrated at boot, as a deployment's is, and left to the test to drop). */
  databaseUrl?: string;
}

/**
 * The real service (api + worker in one process) on a fresh database: embedded PGlite by default,
 * the PostgreSQL server and Redis when DATABASE_URL / REDIS_URL are set.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database: TestDatabase = options.databaseUrl
    ? { databaseUrl: options.databaseUrl, drop: () => Promise.resolve() }
    : await createTestDatabase();
  let databaseUrl = database.databaseUrl;
  let embedded: EmbeddedPostgres | undefined;
  let databaseProxy: TcpProxy | undefined;
  if (options.proxyDatabase) {
    if (!databaseUrl) {
      embedded = await EmbeddedPostgres.start({ loadDataDir: database.loadDataDir });
      databaseUrl = embedded.connectionString;
    }
    const target = new URL(databaseUrl);
    databaseProxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    target.port = String(databaseProxy.port);
    databaseUrl = target.toString();
  }
  const config = loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
    ENABLE_TEST_ROUTES: 'true',
    ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    RECOVERY_GRACE_SECONDS: '5',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const runtime = await prepareRuntime(config, createLogger(config.logLevel), { loadDataDir: database.loadDataDir });
  const clock = new AdjustableClock();
  const app = await createServer(runtime, { clock, swaggerUi: false });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();

  const apiKey = generateApiKey();
  await app.get(TenancyService).ensureFirstBoot(apiKey);
  if (config.workflowsDir) {
    // The boot step of main.ts: a bad file fails the start, and the test must not leak the app.
    try {
      await app.get(LoadWorkflowsDirectoryUseCase).execute();
    } catch (error) {
      await app.close();
      await runtime.close();
      await databaseProxy?.close();
      await embedded?.stop();
      await database.drop();
      throw error;
    }
  }
  const environments = app.get(EnvironmentRepository);
  const environment = (await environments.findEnvironmentByName('Development'))!;
  const http = request(app.getHttpServer());

  const keyFor = async (target: Environment) => {
    const key = generateApiKey();
    await environments.insertApiKey(target, hashApiKey(key), apiKeyPrefix(key));
    return { apiKey: key, environment: target };
  };

  return {
    app,
    runtime,
    db: runtime.database.db,
    clock,
    queue: app.get(JobQueue),
    http,
    apiKey,
    environment,
    api: (method, path, key = apiKey) => http[method](path).set('Authorization', `ApiKey ${key}`),
    createForeignKey: async () => {
      const [foreign] = await environments.createOrganization(`Foreign ${randomBytes(3).toString('hex')}`, [
        'Development',
      ]);
      return keyFor(foreign);
    },
    createKeyFor: async (name) => keyFor((await environments.findEnvironmentByName(name, environment.organizationId))!),
    databaseProxy,
    close: async () => {
      await databaseProxy?.restore();
      await app.close();
      await runtime.close();
      await databaseProxy?.close();
      await embedded?.stop();
      await database.drop();
    },
  };
}
