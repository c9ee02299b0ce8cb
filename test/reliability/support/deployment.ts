import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { loadConfig, TERMINAL_JOB_STATUSES } from '#common';
import {
  ensureBuilt,
  freePort,
  MAIN,
  startService,
  waitForHealthy,
  WORKER_MAIN,
  type ServiceProcess,
} from '../../support/service-process.js';
import { TEST_ENCRYPTION_KEY } from '../../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import type { UntypedJson } from '../../support/untyped-json.js';
import type { PrivatePostgres } from './private-postgres.js';

export interface DeploymentOptions {
  /** On this cluster's own database (migrated by the api at boot) instead of a fresh database of the shared server. */
  privatePostgres?: PrivatePostgres;
  worker?: boolean;
}

/** The built service as deployed: an api process and a worker process on a fresh database and Redis prefix. */
export class Deployment {
  readonly apiKey = randomBytes(24).toString('hex');
  readonly prefix = `rel-${randomBytes(4).toString('hex')}`;
  api!: ServiceProcess;
  worker!: ServiceProcess;
  /** The test's own connections, straight to the database (a pool: it outlives a server restart). */
  sql!: pg.Pool;
  private database?: TestDatabase;
  private env!: Record<string, string>;

  static async start(extraEnv: Record<string, string> = {}, options: DeploymentOptions = {}): Promise<Deployment> {
    ensureBuilt();
    const deployment = new Deployment();
    const config = loadConfig({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
    if (!config.redisUrl) throw new Error('the process scenarios need REDIS_URL');
    if (!options.privatePostgres) deployment.database = await createTestDatabase();
    const directUrl = options.privatePostgres?.url ?? deployment.database!.databaseUrl!;
    deployment.env = {
      DATABASE_URL: directUrl,
      REDIS_URL: config.redisUrl,
      QUEUE_PREFIX: deployment.prefix,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      RECOVERY_GRACE_SECONDS: '5',
      ...extraEnv,
    };
    try {
      deployment.api = startService(
        { ...deployment.env, API_KEY: deployment.apiKey, ROLE: 'api' },
        await freePort(),
        MAIN,
      );
      await waitForHealthy(deployment.api, 60_000);
      if (options.worker !== false) await deployment.startWorker();
      deployment.sql = new pg.Pool({ connectionString: directUrl, max: 2 });
      // An idle connection ended by a server stop is discarded by the pool, not thrown.
      deployment.sql.on('error', () => undefined);
    } catch (error) {
      await deployment.stop();
      throw error;
    }
    return deployment;
  }

  /** The consumer process: the worker entry point (queue consumers and /health). */
  async startWorker(): Promise<void> {
    this.worker = startService({ ...this.env, ROLE: 'worker' }, await freePort(), WORKER_MAIN);
    await waitForHealthy(this.worker, 60_000);
  }

  redis(): Redis {
    return new Redis(this.env.REDIS_URL);
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: UntypedJson }> {
    const res = await fetch(`http://127.0.0.1:${this.api.port}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${this.apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  private async expectOk(method: string, path: string, body?: unknown): Promise<UntypedJson> {
    const res = await this.call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** `count` subscribers in one topic and a one-step in_app workflow, all through the API. */
  async seedTopic(count: number): Promise<{ topicKey: string; workflow: string }> {
    const ids = Array.from({ length: count }, (_, i) => `r-${i}`);
    for (let i = 0; i < count; i += 500) {
      await this.expectOk('POST', '/v1/subscribers/bulk', {
        subscribers: ids.slice(i, i + 500).map((subscriberId) => ({ subscriberId })),
      });
    }
    const topicKey = 'reliability-all';
    await this.expectOk('POST', '/v2/topics', { key: topicKey, name: 'All' });
    const batches = [];
    for (let i = 0; i < count; i += 100) batches.push(ids.slice(i, i + 100));
    for (let i = 0; i < batches.length; i += 10) {
      await Promise.all(
        batches
          .slice(i, i + 10)
          .map((subscriptions) => this.expectOk('POST', `/v2/topics/${topicKey}/subscriptions`, { subscriptions })),
      );
    }
    const workflow = await this.expectOk('POST', '/v1/workflows', {
      name: 'Reliability',
      steps: [{ template: { type: 'in_app', content: 'Hi' } }],
    });
    return { topicKey, workflow: workflow.triggers[0].identifier };
  }

  async count(sql: string, params: unknown[] = []): Promise<number> {
    const { rows } = await this.sql.query<{ n: string }>(sql, params);
    return Number(rows[0].n);
  }

  messages(transactionId: string): Promise<number> {
    return this.count('SELECT count(*) AS n FROM messages WHERE transaction_id = $1', [transactionId]);
  }

  /** Subscribers of the transaction without exactly one message, and jobs or events not finished. */
  async leftovers(
    transactionId: string,
  ): Promise<{ duplicated: number; distinct: number; openJobs: number; openEvents: number }> {
    return {
      duplicated: await this.count(
        'SELECT count(*) AS n FROM (SELECT subscriber_id FROM messages WHERE transaction_id = $1 GROUP BY 1 HAVING count(*) > 1) d',
        [transactionId],
      ),
      distinct: await this.count('SELECT count(DISTINCT subscriber_id) AS n FROM messages WHERE transaction_id = $1', [
        transactionId,
      ]),
      openJobs: await this.count(
        'SELECT count(*) AS n FROM jobs WHERE transaction_id = $1 AND NOT (status = ANY($2))',
        [transactionId, TERMINAL_JOB_STATUSES],
      ),
      openEvents: await this.count(
        `SELECT count(*) AS n FROM trigger_events WHERE transaction_id = $1 AND status <> 'done'`,
        [transactionId],
      ),
    };
  }

  /** Job statuses, event status and message count of a transaction, for a failure message. */
  async state(transactionId: string): Promise<Record<string, unknown>> {
    const jobs = await this.sql.query(
      'SELECT status, count(*)::int AS n FROM jobs WHERE transaction_id = $1 GROUP BY 1',
      [transactionId],
    );
    const events = await this.sql.query('SELECT status, error FROM trigger_events WHERE transaction_id = $1', [
      transactionId,
    ]);
    return { messages: await this.messages(transactionId), jobs: jobs.rows, events: events.rows };
  }

  async stop(): Promise<void> {
    await this.sql?.end().catch(() => undefined);
    await this.worker?.stop().catch(() => undefined);
    await this.api?.stop().catch(() => undefined);
    await this.database?.drop();
  }
}
