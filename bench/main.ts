import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  bareFastify,
  bareFastifyInboxList,
  bullmqCeiling,
  deleteRedisPrefix,
  postgresInsertCeiling,
} from './ceilings.js';
import { seedSubscribers, settle } from './database.js';
import { deploy, type Deployment } from './deployment.js';
import { assertOpenFilesLimit, bareSocketIo, inbox } from './inbox.js';
import { parseOptions, type BenchOptions } from './options.js';
import { killAllOnExit, ROOT } from './processes.js';
import { buildRows, formatTable, verdict, type Ceilings, type PhaseResults } from './report.js';
import { feed, singleTriggers, topicFanOut, triggerAccept } from './scenarios.js';
import { noisyNeighbour, QUIET_RATE } from './noisy-neighbour.js';
import { feedUnderLoad, sustainedTriggers } from './sustained.js';
import { soak } from './soak.js';
import { dashboardActivity } from './dashboard.js';
import { webhooks } from './webhooks.js';
import { SHORT_SECONDS, SHORT_SUBSCRIBERS, shortScenario } from './short-scenario.js';
import { costPerDelivery } from './cost.js';
import { translations } from './translations.js';
import { lifecycle, LIFECYCLE_RETENTION_DAYS } from './lifecycle.js';

const errors: { step: string; message: string }[] = [];
const notes: string[] = [];

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Runs one step; a failure is recorded and the run goes on with the next one. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  log(`${name}...`);
  const started = performance.now();
  try {
    const result = await run();
    log(`${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push({ step: name, message: message.slice(0, 4000) });
    log(`${name} FAILED: ${message.slice(0, 2000)}`);
    return undefined;
  }
}

async function versions(options: BenchOptions) {
  const client = new pg.Client({ connectionString: options.adminUrl });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  const info = await redis.info('server');
  redis.disconnect();
  return {
    node: process.version,
    postgres: rows[0].server_version,
    redis: /redis_version:(\S+)/.exec(info)?.[1],
  };
}

/** The selected scenarios against one deployment, in the order, each on a settled database. */
async function runPhase(deployment: Deployment, options: BenchOptions, withFeed: boolean): Promise<PhaseResults> {
  const results: PhaseResults = {};
  const label = deployment.label;
  const run = async <T>(part: string, title: string, scenario: () => Promise<T>): Promise<T | undefined> => {
    if (!options.parts.has(part)) return undefined;
    await settle(deployment.pool);
    return step(title, scenario);
  };
  if (options.parts.has('sustained') || options.parts.has('soak')) {
    const sending = `${options.sustainedDuration} s at ${options.connections} connections, worker consuming`;
    results.sustained = {
      existing: await run('sustained', `${label}: sustained end to end, existing subscribers (${sending})`, () =>
        sustainedTriggers(deployment, options, 'existing'),
      ),
      newSubscribers: await run('sustained', `${label}: sustained end to end, new subscribers (${sending})`, () =>
        sustainedTriggers(deployment, options, 'new'),
      ),
      feed: withFeed
        ? await run('sustained', `${label}: feed idle and under ${options.feedLoadRate} triggers/s`, () =>
            feedUnderLoad(deployment, options),
          )
        : undefined,
      soak: withFeed
        ? await run('soak', `${label}: sustained end to end for ${options.soakDuration} s, existing subscribers`, () =>
            soak(deployment, options),
          )
        : undefined,
    };
  }
  results.accept = await run(
    'accept',
    `${label}: trigger accept (${options.connections} connections, ${options.duration} s each)`,
    () => triggerAccept(deployment, options),
  );
  results.fanOut = await run('fanout', `${label}: fan-out to a ${options.topicSize}-subscriber topic`, () =>
    topicFanOut(deployment, options),
  );
  results.singles = await run('singles', `${label}: ${options.singles} single triggers`, () =>
    singleTriggers(deployment, options),
  );
  if (withFeed)
    results.feed = await run('feed', `${label}: feed over ${options.feedRows} notifications`, () =>
      feed(deployment, options),
    );
  if (withFeed)
    results.dashboard = await run(
      'dashboard',
      `${label}: dashboard Activity page in Chromium over ${options.feedRows} notifications`,
      () => dashboardActivity(deployment, options),
    );
  if (withFeed)
    results.inbox = await run(
      'inbox',
      `${label}: inbox, ${options.inboxSockets} sockets, topic of ${options.inboxTopicSize}, list load`,
      () => inbox(deployment, options),
    );
  if (deployment.queueKind === 'redis')
    results.noisy = await run(
      'noisy',
      `${label}: noisy neighbour, B's in_app at ${QUIET_RATE}/s for ${options.noisyDuration} s alone and beside A's hanging chat calls`,
      () => noisyNeighbour(deployment, options),
    );
  if (deployment.queueKind === 'redis')
    results.webhooks = await run(
      'webhooks',
      `${label}: sustained end to end without and with one message.sent webhook endpoint`,
      () => webhooks(deployment, options),
    );
  results.cost = await run(
    'cost',
    `${label}: cost per trigger and delivery (CPU, statements, rows, queue commands)`,
    () => costPerDelivery(deployment, options),
  );
  if (deployment.queueKind === 'redis')
    results.translations = await run(
      'translations',
      `${label}: sustained end to end with a plain and with a {{t.key}} workflow`,
      () => translations(deployment, options),
    );
  return results;
}

function serviceLogs(deployment: Deployment) {
  for (const note of deployment.notes) notes.push(`${deployment.label}: ${note}`);
  const { vacuums, analyzes, busySeconds } = deployment.vacuumed;
  notes.push(
    `${deployment.label}: PostgreSQL's autovacuum is off on this cluster; the bench did its work at the default thresholds: ${vacuums} vacuums, ${analyzes} analyzes, ${busySeconds.toFixed(1)} s`,
  );
  return Object.fromEntries(
    [deployment.api, deployment.worker].map((proc) => [
      proc.name,
      { linesLogged: proc.loggedLines(), tail: proc.output().slice(-3000) },
    ]),
  );
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  killAllOnExit();
  for (const entry of [
    'dist/apps/api/src/main.js',
    'dist/apps/worker/src/main.js',
    'dist/bench/bare-fastify.js',
    'dist/bench/bare-socketio.js',
    'dist/bench/socket-clients.js',
  ]) {
    if (!existsSync(join(ROOT, entry))) throw new Error(`${entry} is missing: run \`npm run bench\` (it builds first)`);
  }
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  log(
    `${options.quick ? 'QUICK' : 'full'} run; parts: ${[...options.parts].join(', ')}; backends: ${[...options.backends].join(', ')}; ${cpus().length} cpus, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const runtime = await versions(options);

  const ceilings: Ceilings = {};
  const redis: PhaseResults = {};
  const pgQueue: PhaseResults = {};
  const logs: Record<string, unknown> = {};
  const stamp = Date.now().toString(36);

  // The sustained part's ratios need these two from the same run.
  const needsFastify = ['ceilings', 'sustained', 'short', 'webhooks', 'translations', 'lifecycle'].some((part) =>
    options.parts.has(part),
  );
  if (needsFastify) {
    ceilings.fastify = await step('ceiling: bare Fastify', () => bareFastify(options.connections, options.duration));
    if (options.backends.has('redis')) {
      const prefix = `bench-ceiling-${stamp}`;
      ceilings.bullmqRedis = await step(`ceiling: BullMQ on Redis, ${options.ceilingJobs} jobs`, () =>
        bullmqCeiling(
          { kind: 'redis', url: options.redisUrl, prefix },
          options.ceilingJobs,
          options.deliveryTimeout * 1000,
        ),
      );
      await deleteRedisPrefix(options.redisUrl, prefix).catch(() => undefined);
    }
  }

  // The inbox's own ceilings run with it, so its ratios always have a bound from the same run.
  if (options.parts.has('inbox')) {
    assertOpenFilesLimit(options.inboxSockets);
    ceilings.socketIo = await step(
      `ceiling: bare socket.io, ${options.inboxSockets} sockets, emit to ${options.inboxTopicSize} rooms`,
      () => bareSocketIo(options),
    );
    ceilings.fastifyInboxList = await step('ceiling: bare Fastify GET inbox page', () =>
      bareFastifyInboxList({
        connections: options.feedConnections,
        duration: options.feedDuration,
        warmUp: options.warmUp,
        runs: options.loadRuns,
      }),
    );
  }

  // The lifecycle and short parts deploy their own service; the phases below serve every other part.
  const phaseParts = [...options.parts].filter((part) => part !== 'lifecycle' && part !== 'short');
  for (const backend of ['redis', 'postgres'] as const) {
    if (!options.backends.has(backend) || phaseParts.length === 0) continue;
    const label = backend === 'redis' ? 'redis' : 'pg-queue';
    const database = backend === 'redis' ? options.database : `${options.database}_pgqueue`;
    const deployment = await step(`${label}: deploy api + worker on a fresh database ${database}`, () =>
      deploy(options, label, database, backend === 'redis'),
    );
    if (!deployment) continue;
    try {
      await step(`${label}: seed ${options.subscribers} subscribers, topic of ${options.topicSize}`, () =>
        seedSubscribers(deployment.pool, deployment.scope, options.subscribers, options.topicSize),
      );
      if (options.parts.has('ceilings') && !ceilings.postgresInsert) {
        ceilings.postgresInsert = await step(`ceiling: PostgreSQL multi-row insert, ${options.ceilingRows} rows`, () =>
          postgresInsertCeiling(deployment.databaseUrl, options.ceilingRows),
        );
      }
      if (options.parts.has('ceilings') && backend === 'postgres') {
        ceilings.bullmqPostgres = await step(`ceiling: BullMQ on PostgreSQL, ${options.ceilingJobs} jobs`, () =>
          bullmqCeiling(
            { kind: 'postgres', databaseUrl: deployment.databaseUrl, schema: 'bench_ceiling' },
            options.ceilingJobs,
            options.deliveryTimeout * 1000,
          ),
        );
      }
      Object.assign(backend === 'redis' ? redis : pgQueue, await runPhase(deployment, options, backend === 'redis'));
      logs[label] = serviceLogs(deployment);
    } finally {
      await deployment.stop();
      if (backend === 'redis') await deleteRedisPrefix(options.redisUrl, deployment.queuePrefix).catch(() => undefined);
    }
  }

  if (options.parts.has('short') && options.backends.has('redis')) {
    const deployment = await step('short: deploy api + worker on a fresh database', () =>
      deploy(options, 'short', `${options.database}_short`, true),
    );
    if (deployment) {
      try {
        redis.short = await step(
          `short: ${SHORT_SUBSCRIBERS} subscribers through the API, then ${SHORT_SECONDS} s of triggers to them and to new ones`,
          () => shortScenario(deployment, options),
        );
        logs.short = serviceLogs(deployment);
      } finally {
        await deployment.stop();
        await deleteRedisPrefix(options.redisUrl, deployment.queuePrefix).catch(() => undefined);
      }
    }
  }

  if (options.parts.has('lifecycle') && options.backends.has('redis')) {
    const days = String(LIFECYCLE_RETENTION_DAYS);
    const lifecycleOptions = {
      ...options,
      serviceEnv: { ...options.serviceEnv, RETENTION_ACTIVITY_DAYS: days, RETENTION_MESSAGES_DAYS: days },
    };
    const deployment = await step(`lifecycle: deploy api + worker keeping ${days} days`, () =>
      deploy(lifecycleOptions, 'lifecycle', `${options.database}_lifecycle`, true),
    );
    if (deployment) {
      try {
        await step(`lifecycle: seed ${options.subscribers} subscribers`, () =>
          seedSubscribers(deployment.pool, deployment.scope, options.subscribers, options.topicSize),
        );
        redis.lifecycle = await step(
          `lifecycle: ${options.lifecycleRows} notifications over ${days} days; feed, inbox, a day dropped`,
          () => lifecycle(deployment, lifecycleOptions),
        );
        logs.lifecycle = serviceLogs(deployment);
      } finally {
        await deployment.stop();
        await deleteRedisPrefix(options.redisUrl, deployment.queuePrefix).catch(() => undefined);
      }
    }
  }

  const rows = buildRows(ceilings, redis, pgQueue);
  process.stdout.write(`\n${formatTable(rows, options.quick)}\n\n`);
  if (options.quick) process.stdout.write('QUICK run: sizes are small, targets do not apply.\n');
  for (const note of notes) process.stdout.write(`NOTE ${note}\n`);
  for (const error of errors) process.stdout.write(`FAILED ${error.step}: ${error.message.split('\n')[0]}\n`);

  const file = join(ROOT, 'bench', 'results.json');
  const { serviceEnv, parts, backends, ...settings } = options;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt,
        finishedAt: new Date().toISOString(),
        settings: { ...settings, parts: [...parts], backends: [...backends], serviceEnv },
        machine: {
          cpus: cpus().length,
          totalMemoryMb: Math.round(totalmem() / 1024 / 1024),
          loadAverageBefore: loadBefore,
          loadAverageAfter: loadavg(),
          ...runtime,
        },
        table: rows.map((row) => ({ ...row, verdict: verdict(row) || undefined })),
        ceilings,
        redis,
        pgQueue,
        errors,
        notes,
        serviceLogs: logs,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`results written to ${file}\n`);
  return errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
