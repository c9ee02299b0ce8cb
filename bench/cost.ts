import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import type { CpuUsage } from './cpu-usage.js';
import { createWorkflow, seedTopic, SUBSCRIBER_PREFIX } from './database.js';
import type { Deployment } from './deployment.js';
import { load } from './load.js';
import type { BenchOptions } from './options.js';
import { startPacedTriggers } from './sustained.js';

/**
 * PostgreSQL publishes a backend's table counters when its transaction ends, at most once a second,
 * and an idle backend's within ten seconds: a snapshot taken this long after the last work sees it all.
 */
const STATS_SETTLE_SECONDS = 11;
const CONNECTIONS = 20;
const COST_TOPIC = 'bench-cost-topic';
/** Triggers of each kind sent before the measured windows. */
const WARM_UP_TRIGGERS = 500;
/**
 * The rate of the kind whose triggers each run alone: far below what the deployment serves, as most
 * deployments run most of the time, so nothing is shared between two triggers' statements and queue entries.
 */
const ALONE_PER_SECOND = 10;

/** What the deployment had done, in counters, at one moment. */
interface Counters {
  statements: { api: number; worker: number };
  /** Per table (partitions added to their parent): rows inserted, updated, deleted; scans; rows read. */
  tables: Record<string, TableCounters>;
  transactions: number;
  /** Redis commands by name; empty for a PostgreSQL queue. */
  redis: Record<string, number>;
}

interface TableCounters {
  inserted: number;
  updated: number;
  deleted: number;
  indexScans: number;
  /** Sequential scans: a hot statement that reads a whole table (or partition) shows here. */
  seqScans: number;
  rowsRead: number;
}

/** The cost of one kind of work: counters' growth and CPU seconds over its window, and how many units it did. */
export interface CostScenario {
  name: string;
  unit: 'trigger' | 'delivery';
  units: number;
  /** The window's length: the idle window's growth is scaled to it before it is taken off. */
  seconds: number;
  cpu: CpuUsage;
  statements: { api: number; worker: number };
  tables: Record<string, TableCounters>;
  transactions: number;
  redis: Record<string, number>;
}

export interface CostResult {
  /** The same window with nothing sent: what the deployment does on its own (maintenance, sweeps). */
  idle: CostScenario;
  scenarios: CostScenario[];
}

async function metricsOf(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return res.text();
}

/** The sum of a metric's series whose labels include every pair of `labels`. */
function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name} `) && !line.startsWith(`${name}{`)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function readCounters(deployment: Deployment, redis: Redis | undefined): Promise<Counters> {
  const [api, worker] = await Promise.all([metricsOf(deployment.api.port), metricsOf(deployment.worker.port)]);
  const { rows } = await deployment.pool.query<TableCounters & { name: string }>(
    `SELECT coalesce(parent.relname, t.relname) AS name,
       sum(t.n_tup_ins)::float8 AS inserted, sum(t.n_tup_upd)::float8 AS updated, sum(t.n_tup_del)::float8 AS deleted,
       sum(coalesce(t.idx_scan, 0))::float8 AS "indexScans", sum(t.seq_scan)::float8 AS "seqScans",
       sum(coalesce(t.idx_tup_fetch, 0) + t.seq_tup_read)::float8 AS "rowsRead"
     FROM pg_stat_user_tables t
     LEFT JOIN pg_inherits i ON i.inhrelid = t.relid
     LEFT JOIN pg_class parent ON parent.oid = i.inhparent
     WHERE t.schemaname = 'public'
     GROUP BY 1`,
  );
  const database = await deployment.pool.query<{ xact_commit: string }>(
    'SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()',
  );
  const commands: Record<string, number> = {};
  if (redis) {
    for (const match of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      commands[match[1]] = Number(match[2]);
  }
  return {
    statements: {
      api: metricSum(api, 'db_statements_total'),
      worker: metricSum(worker, 'db_statements_total'),
    },
    tables: Object.fromEntries(rows.map(({ name, ...counters }) => [name, counters])),
    transactions: Number(database.rows[0].xact_commit),
    redis: commands,
  };
}

function growth(before: Counters, after: Counters): Omit<CostScenario, 'name' | 'unit' | 'units' | 'seconds' | 'cpu'> {
  const tables: Record<string, TableCounters> = {};
  for (const [name, now] of Object.entries(after.tables)) {
    const was = before.tables[name];
    const grew = {
      inserted: now.inserted - (was?.inserted ?? 0),
      updated: now.updated - (was?.updated ?? 0),
      deleted: now.deleted - (was?.deleted ?? 0),
      indexScans: now.indexScans - (was?.indexScans ?? 0),
      seqScans: now.seqScans - (was?.seqScans ?? 0),
      rowsRead: now.rowsRead - (was?.rowsRead ?? 0),
    };
    if (Object.values(grew).some((value) => value > 0)) tables[name] = grew;
  }
  const redis: Record<string, number> = {};
  for (const [command, calls] of Object.entries(after.redis)) {
    const grew = calls - (before.redis[command] ?? 0);
    if (grew > 0) redis[command] = grew;
  }
  return {
    statements: {
      api: after.statements.api - before.statements.api,
      worker: after.statements.worker - before.statements.worker,
    },
    tables,
    transactions: after.transactions - before.transactions,
    redis,
  };
}

/** A local SMTP server that accepts every mail and counts them. */
async function startSmtpSink(): Promise<{ port: number; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received++;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received: () => received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function expectCreated(res: Response, what: string): Promise<void> {
  if (res.status !== 201 && res.status !== 200) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** The worker's deliveries of `channel` with status sent, so far. */
const sentSoFar = async (deployment: Deployment, channel: string) =>
  metricSum(await metricsOf(deployment.worker.port), 'deliveries_total', { channel, status: 'sent' });

/** Polls the worker's deliveries of `channel` until they grew by `expected` (or the wait gives up). */
async function waitForSent(deployment: Deployment, channel: string, from: number, expected: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sent = await sentSoFar(deployment, channel);
    if (sent - from >= expected) return;
    if (Date.now() > deadline) throw new Error(`${sent - from} of ${expected} ${channel} deliveries within the wait`);
    await sleep(200);
  }
}

/**
 * For one in_app trigger to an existing subscriber, one to a subscriber the trigger creates, one
 * email, and one delivery of a topic trigger: each process's CPU, statements, rows and queue
 * commands, as the growth of the deployment's own counters over a window that holds only that work
 * (the service's /metrics, pg_stat_user_tables, Redis INFO commandstats) divided by the units done.
 * Sent at a moderate concurrency: the figures are costs, not a throughput.
 */
export async function costPerDelivery(deployment: Deployment, options: BenchOptions): Promise<CostResult> {
  const triggers = options.quick ? 300 : 2_000;
  const topicSize = options.quick ? 200 : 1_000;
  const topicTriggers = 5;
  const smtp = await startSmtpSink();
  const redis = deployment.queueKind === 'redis' ? new Redis(options.redisUrl) : undefined;
  const { client } = deployment;
  try {
    const inApp = 'bench-cost-in-app';
    await createWorkflow(deployment.pool, deployment.scope, client, inApp);
    const email = 'bench-cost-email';
    await expectCreated(
      await client.request('POST', '/v1/workflows', {
        name: email,
        steps: [
          {
            template: {
              type: 'email',
              subject: 'Order {{payload.orderId}}',
              content: 'Hello {{subscriber.firstName}}',
            },
          },
        ],
      }),
      'email workflow',
    );
    await expectCreated(
      await client.request('POST', '/v1/integrations', {
        providerId: 'nodemailer',
        channel: 'email',
        active: true,
        credentials: {
          host: '127.0.0.1',
          port: String(smtp.port),
          secure: false,
          ignoreTls: true,
          from: 'bench@bench.test',
        },
      }),
      'SMTP integration',
    );
    await seedTopic(deployment.pool, deployment.scope, COST_TOPIC, topicSize);
    const runId = randomUUID().slice(0, 8);
    const send = async (name: string, amount: number, to: (n: number) => unknown) => {
      const result = await load({
        url: `${client.baseUrl}/v1/events/trigger`,
        method: 'POST',
        headers: client.headers,
        connections: Math.min(CONNECTIONS, amount),
        amount,
        bodyFor: (n) => JSON.stringify({ name, to: to(n), payload: { orderId: `cost-${runId}-${n}` } }),
      });
      if (result.ok2xx !== amount)
        throw new Error(`${name}: ${result.ok2xx} of ${amount} accepted (${result.firstError})`);
    };
    const existing = (n: number) => `${SUBSCRIBER_PREFIX}${(n % options.subscribers) + 1}`;
    /** `amount` triggers to existing subscribers at ALONE_PER_SECOND, each accepted and fanned out before the next. */
    const sendAlone = async (name: string, amount: number) => {
      const paced = startPacedTriggers(deployment, options, name, ALONE_PER_SECOND, amount);
      // One period more than the schedule, so its last request has been sent when the load stops.
      await sleep(((amount + 1) / ALONE_PER_SECOND) * 1000);
      const result = await paced.stop();
      if (result.ok2xx !== amount)
        throw new Error(`${name} alone: ${result.ok2xx} of ${amount} accepted (${result.firstError ?? 'no error'})`);
    };
    const aloneTriggers = options.quick ? 50 : 200;
    /** A subscriber object the trigger creates, its id unique under `tag`. */
    const newSubscriber = (tag: string) => (n: number) => ({
      subscriberId: `bench-cost-${tag}-${n}`,
      firstName: 'New',
      email: `c${n}@bench.test`,
    });
    const timeoutMs = options.deliveryTimeout * 1000;
    // Warm every path before anything is counted: caches, plans, the SMTP connection, and the code V8
    // optimizes over a process's first few hundred requests of a kind.
    const warmUp = options.quick ? 20 : WARM_UP_TRIGGERS;
    const [inAppBefore, emailBefore] = [await sentSoFar(deployment, 'in_app'), await sentSoFar(deployment, 'email')];
    await send(inApp, warmUp, existing);
    await send(inApp, warmUp, newSubscriber(`warm-${runId}`));
    await send(email, warmUp, existing);
    await waitForSent(deployment, 'in_app', inAppBefore, 2 * warmUp, timeoutMs);
    await waitForSent(deployment, 'email', emailBefore, warmUp, timeoutMs);

    const kinds: { name: string; unit: CostScenario['unit']; units: number; channel: string; run(): Promise<void> }[] =
      [
        {
          name: 'in_app trigger, existing subscriber',
          unit: 'trigger',
          units: triggers,
          channel: 'in_app',
          run: () => send(inApp, triggers, existing),
        },
        {
          name: `in_app trigger, existing subscriber, ${ALONE_PER_SECOND} per second (each trigger alone)`,
          unit: 'trigger',
          units: aloneTriggers,
          channel: 'in_app',
          run: () => sendAlone(inApp, aloneTriggers),
        },
        {
          name: 'in_app trigger, new subscriber in the trigger',
          unit: 'trigger',
          units: triggers,
          channel: 'in_app',
          run: () => send(inApp, triggers, newSubscriber(runId)),
        },
        {
          name: 'email trigger, existing subscriber',
          unit: 'trigger',
          units: triggers,
          channel: 'email',
          run: () => send(email, triggers, existing),
        },
        {
          name: `in_app delivery of a topic trigger (${topicSize} subscribers)`,
          unit: 'delivery',
          units: topicTriggers * topicSize,
          channel: 'in_app',
          run: () => send(inApp, topicTriggers, () => [{ type: 'Topic', topicKey: COST_TOPIC }]),
        },
      ];

    await sleep(STATS_SETTLE_SECONDS * 1000);
    const measure = async (name: string, unit: CostScenario['unit'], units: number, work: () => Promise<void>) => {
      const before = await readCounters(deployment, redis);
      const cpuWindow = deployment.cpuWindow();
      await work();
      await sleep(STATS_SETTLE_SECONDS * 1000);
      const cpu = cpuWindow.stop();
      const after = await readCounters(deployment, redis);
      deployment.assertAlive();
      return { name, unit, units, seconds: cpu.seconds, cpu, ...growth(before, after) };
    };
    const idle = await measure('idle', 'trigger', 1, () => Promise.resolve());
    const scenarios: CostScenario[] = [];
    for (const kind of kinds) {
      scenarios.push(
        await measure(kind.name, kind.unit, kind.units, async () => {
          const from = await sentSoFar(deployment, kind.channel);
          await kind.run();
          await waitForSent(deployment, kind.channel, from, kind.units, timeoutMs);
        }),
      );
    }
    if (smtp.received() < triggers) throw new Error(`the SMTP sink received ${smtp.received()} mails`);
    return { idle, scenarios };
  } finally {
    redis?.disconnect();
    await smtp.close();
  }
}
