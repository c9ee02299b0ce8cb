import type pg from 'pg';
import {
  createWorkflow,
  databaseSize,
  ensurePartitions,
  idAt,
  settle,
  SUBSCRIBER_PREFIX,
  type Scope,
} from './database.js';
import type { Deployment } from './deployment.js';
import { createSessions } from './inbox.js';
import { load, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { feedLoad } from './scenarios.js';
import { startPacedLoad, type PacedResult } from './paced-load.js';
import { sleep } from './processes.js';
import { startPacedTriggers } from './sustained.js';

/** The days of activity the lifecycle deployment keeps (RETENTION_ACTIVITY_DAYS and _MESSAGES_DAYS). */
export const LIFECYCLE_RETENTION_DAYS = 60;
const FEED_PAGE_0 = 'page=0&limit=10';
const INBOX_LIST = '/inbox/notifications?limit=10';
/** Sessions the inbox list load rotates through. */
const INBOX_SESSIONS = 100;
/** Simulated days of steady traffic: each adds a day of rows and expires one. */
const CYCLES = 7;
const DAY_MS = 86_400_000;
const MAINTENANCE_WAIT_MS = 600_000;

interface MaintenanceMeasure {
  /** The run's own duration, as the worker recorded it. */
  durationMs: number;
  removed: Record<string, number>;
  /** Milliseconds by phase of the run. */
  phasesMs: Record<string, number>;
  /** Trigger accept latency while the run went on, and the same load without it just before. */
  acceptAlone: LoadResult;
  acceptDuring: LoadResult;
}

export interface LifecycleResult {
  notifications: number;
  days: number;
  seedSeconds: number;
  feedIdle: { page0: LoadResult; page50: LoadResult; bySubscriber: LoadResult };
  feedUnderLoad: LoadResult;
  /** The paced trigger sender running beside the feed under load: what it had accepted when it stopped. */
  triggerSender: PacedResult;
  inboxList: LoadResult;
  /**
   * The same feed pages and inbox list at half the rate the closed loops above reached (paced, an open
   * loop): their latency when the service is not saturated by the measuring load itself. The feed
   * under triggers likewise, at half the closed loop's rate under the same triggers.
   */
  paced: {
    feedPage0: PacedResult;
    feedPage50: PacedResult;
    feedBySubscriber: PacedResult;
    inboxList: PacedResult;
    feedUnderTriggers: PacedResult;
  };
  maintenance: MaintenanceMeasure;
  /** pg_database_size: after seeding; with one more day past the retention; after the run dropped it; after each simulated day. */
  sizeBytes: { seeded: number; withExpiredDay: number; afterRun: number; cycles: number[] };
}

/**
 * The data lifecycle at scale: `lifecycleRows` delivered in-app notifications (each with its trigger
 * event, job, execution detail and message) over LIFECYCLE_RETENTION_DAYS past days; the feed and the
 * inbox list idle, the feed under a paced end-to-end trigger load; then one more day of rows past the
 * retention and the maintenance run that drops it, with trigger accept measured beside it; then
 * CYCLES simulated days, each a day of rows in and a day out (a week partition of one day's rows
 * dropped), with the database size after each.
 */
export async function lifecycle(deployment: Deployment, options: BenchOptions): Promise<LifecycleResult> {
  const { pool, scope } = deployment;
  const workflow = await createWorkflow(pool, scope, deployment.client, 'bench-lifecycle');
  const perDay = Math.ceil(options.lifecycleRows / LIFECYCLE_RETENTION_DAYS);
  await ensurePartitions(pool, LIFECYCLE_RETENTION_DAYS + 1);
  const seedStart = performance.now();
  for (let day = 1; day <= LIFECYCLE_RETENTION_DAYS; day++)
    await seedDay(pool, scope, workflow.id, day, perDay, options.subscribers, `${day}`);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  await settle(pool);
  const seeded = await databaseSize(pool);

  const feedQueries = {
    page0: FEED_PAGE_0,
    page50: 'page=50&limit=10',
    bySubscriber: `subscriberIds=${SUBSCRIBER_PREFIX}${Math.min(777, options.subscribers)}&page=0&limit=10`,
  };
  const feedIdle = {
    page0: await feedLoad(deployment, options, feedQueries.page0),
    page50: await feedLoad(deployment, options, feedQueries.page50),
    bySubscriber: await feedLoad(deployment, options, feedQueries.bySubscriber),
  };
  const inboxTokens = await createSessions(deployment, INBOX_SESSIONS);
  const inboxList = await inboxListLoad(deployment, options, inboxTokens);
  /** A feed read paced at half the rate its closed loop reached. */
  const pacedFeed = (query: string, closedLoop: LoadResult) =>
    pacedGet(deployment, options, `/notifications?${query}`, closedLoop.requestsPerSecond / 2);
  const paced = {
    feedPage0: await pacedFeed(feedQueries.page0, feedIdle.page0),
    feedPage50: await pacedFeed(feedQueries.page50, feedIdle.page50),
    feedBySubscriber: await pacedFeed(feedQueries.bySubscriber, feedIdle.bySubscriber),
    inboxList: await pacedGet(deployment, options, INBOX_LIST, inboxList.requestsPerSecond / 2, inboxTokens),
  };

  const pacedWorkflow = 'bench-lifecycle-paced';
  await createWorkflow(pool, scope, deployment.client, pacedWorkflow);
  const sender = startPacedTriggers(deployment, options, pacedWorkflow, options.feedLoadRate);
  // The triggers run alone for the feed's duration first, so the feed meets the pipeline in its steady
  // state, not its start. The sender is stopped even when the feed load fails, so it never outlives the scenario.
  const underTriggers = await sleep(options.feedDuration * 1000)
    .then(async () => {
      const closed = await feedLoad(deployment, options, FEED_PAGE_0);
      return { closed, paced: await pacedFeed(FEED_PAGE_0, closed) };
    })
    .catch(async (error: unknown) => {
      await sender.stop();
      throw error;
    });
  const sent = await sender.stop();
  deployment.assertAlive();

  // A day of rows in a week partition wholly past the retention: the next maintenance run drops it.
  const expired = LIFECYCLE_RETENTION_DAYS + 7;
  await ensurePartitions(pool, expired);
  await seedDay(pool, scope, workflow.id, expired, perDay, options.subscribers, 'expired');
  // Rows past the retention have been in a deployment for a month: vacuumed by then (autovacuum does
  // it for inserted rows; it is off on this machine), as the seeded days are. Left fresh, the run's
  // first read would set their hint bits and write every page again, which no deployment's run does.
  await settle(pool);
  const withExpiredDay = await databaseSize(pool);
  const maintenance = await measureMaintenance(deployment, options);
  const afterRun = await databaseSize(pool);

  const cycles: number[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    await ensurePartitions(pool, expired);
    await seedDay(pool, scope, workflow.id, expired, perDay, options.subscribers, `cycle-${cycle}`);
    await runMaintenance(deployment);
    await pool.query('CHECKPOINT');
    cycles.push(await databaseSize(pool));
  }
  deployment.assertAlive();
  return {
    notifications: perDay * LIFECYCLE_RETENTION_DAYS,
    days: LIFECYCLE_RETENTION_DAYS,
    seedSeconds,
    feedIdle,
    feedUnderLoad: underTriggers.closed,
    triggerSender: sent,
    inboxList,
    paced: { ...paced, feedUnderTriggers: underTriggers.paced },
    maintenance,
    sizeBytes: { seeded, withExpiredDay, afterRun, cycles },
  };
}

/**
 * `rows` delivered in-app notifications created during the UTC day `daysBack` days ago, round-robin
 * over the seeded subscribers, in batches; ids carry their creation time, as the service's do.
 */
async function seedDay(
  pool: pg.Pool,
  scope: Scope,
  workflowId: string,
  daysBack: number,
  rows: number,
  subscribers: number,
  label: string,
): Promise<void> {
  const dayStart = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysBack * DAY_MS);
  const batch = 50_000;
  for (let from = 1; from <= rows; from += batch) {
    const to = Math.min(rows, from + batch - 1);
    const at = `($4::timestamptz + make_interval(secs => g * ${86_400 / rows}))`;
    await pool.query(
      `WITH e AS (
         INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, request, status, created_at, updated_at)
         SELECT ${idAt(at)}, $1, $2, 'bench-life-' || $7::text || '-' || g, $3,
           jsonb_build_object('name', 'bench-lifecycle', 'to', $8::text || (g % $9::int + 1), 'payload', jsonb_build_object('n', g)),
           'done', ${at}, ${at}
         FROM generate_series($5::int, $6::int) g
         RETURNING id, transaction_id, request ->> 'to' AS to_id, created_at),
       n AS (
         INSERT INTO notifications (id, environment_id, organization_id, event_id, subscriber_id, workflow_id, transaction_id, channels, created_at, updated_at)
         SELECT ${idAt('e.created_at')}, $1, $2, e.id, s.id, $3, e.transaction_id, '{in_app}', e.created_at, e.created_at
         FROM e JOIN subscribers s ON s.environment_id = $1 AND s.subscriber_id = e.to_id
         RETURNING id, subscriber_id, transaction_id, created_at),
       j AS (
         INSERT INTO jobs (id, environment_id, organization_id, notification_id, subscriber_id, workflow_id, transaction_id, step_index, step, type, status, created_at, updated_at)
         SELECT ${idAt('n.created_at')}, $1, $2, n.id, n.subscriber_id, $3, n.transaction_id, 0, w.steps -> 0, 'in_app', 'completed', n.created_at, n.created_at
         FROM n, (SELECT steps FROM workflows WHERE id = $3) w
         RETURNING id, notification_id, subscriber_id, transaction_id, created_at),
       x AS (
         INSERT INTO execution_details (id, environment_id, organization_id, job_id, notification_id, subscriber_id, status, detail, source, provider_id, created_at, updated_at)
         SELECT ${idAt('j.created_at')}, $1, $2, j.id, j.notification_id, j.subscriber_id, 'Success', 'Message created', 'Internal', 'novu', j.created_at, j.created_at
         FROM j)
       INSERT INTO messages (id, environment_id, organization_id, notification_id, job_id, subscriber_id, workflow_id, template_identifier, transaction_id, channel, content, created_at, updated_at)
       SELECT ${idAt('j.created_at')}, $1, $2, j.notification_id, j.id, j.subscriber_id, $3, 'bench-lifecycle', j.transaction_id, 'in_app',
         to_jsonb('Your order is on its way'::text), j.created_at, j.created_at
       FROM j`,
      [
        scope.environmentId,
        scope.organizationId,
        workflowId,
        dayStart,
        from,
        to,
        label,
        SUBSCRIBER_PREFIX,
        subscribers,
      ],
    );
  }
}

/** `GET /v1/inbox/notifications?limit=10`, each request another seeded subscriber's session. */
async function inboxListLoad(deployment: Deployment, options: BenchOptions, tokens: string[]): Promise<LoadResult> {
  return load({
    url: `${deployment.client.baseUrl}/v1${INBOX_LIST}`,
    connections: options.feedConnections,
    duration: options.feedDuration,
    warmUpSeconds: options.warmUp,
    runs: options.loadRuns,
    headersFor: (n) => ({ authorization: `Bearer ${tokens[n % tokens.length]}` }),
  });
}

/**
 * GETs of `/v1<path>` at `rate`/s for the feed's duration: with the API key, or each with one of
 * `tokens` (inbox sessions). The same load runs as long before, unmeasured: the paced loads open twice
 * the closed loops' connections, and what a service pays once for its connections (the pool growing,
 * each new database session planning its statements over the partitions, the api's code optimised)
 * is a start-up cost, not the steady latency this measures.
 */
async function pacedGet(
  deployment: Deployment,
  options: BenchOptions,
  path: string,
  rate: number,
  tokens?: string[],
): Promise<PacedResult> {
  const run = async () => {
    const load = startPacedLoad({
      origin: deployment.client.baseUrl,
      path: `/v1${path}`,
      headers: tokens ? {} : deployment.client.headers,
      headersFor: tokens && ((n) => ({ authorization: `Bearer ${tokens[n % tokens.length]}` })),
      rate: Math.max(1, Math.round(rate)),
      connections: options.feedConnections * 2,
      maxOutstanding: Math.max(1, Math.round(rate)),
    });
    await sleep(options.feedDuration * 1000);
    return load.stop();
  };
  await run();
  return run();
}

/** Trigger accept alone, then the same load while a queued maintenance run drops the expired day. */
async function measureMaintenance(deployment: Deployment, options: BenchOptions): Promise<MaintenanceMeasure> {
  const accept = () =>
    load({
      url: `${deployment.client.baseUrl}/v1/events/trigger`,
      method: 'POST',
      headers: deployment.client.headers,
      body: JSON.stringify({ name: 'bench-lifecycle-paced', to: `${SUBSCRIBER_PREFIX}1`, payload: { orderId: 1 } }),
      connections: options.connections,
      duration: options.duration,
    });
  const acceptAlone = await accept();
  await deployment.discardBacklog();
  const during = accept();
  const run = await runMaintenance(deployment);
  const acceptDuring = await during;
  await deployment.discardBacklog();
  return { ...run, acceptAlone, acceptDuring };
}

/** Queues a maintenance run and waits for the worker to record it. */
async function runMaintenance(
  deployment: Deployment,
): Promise<Pick<MaintenanceMeasure, 'durationMs' | 'removed' | 'phasesMs'>> {
  const status = async () =>
    (
      await deployment.pool.query<{
        succeeded: number;
        last_duration_ms: number;
        last_removed: Record<string, number>;
        last_phases_ms: Record<string, number>;
      }>(
        `SELECT succeeded, last_duration_ms, last_removed, last_phases_ms FROM maintenance_status WHERE name = 'maintenance'`,
      )
    ).rows[0];
  const before = (await status())?.succeeded ?? 0;
  await deployment.queueMaintenance();
  const deadline = Date.now() + MAINTENANCE_WAIT_MS;
  for (;;) {
    const now = await status();
    if (now && now.succeeded > before)
      return { durationMs: now.last_duration_ms, removed: now.last_removed, phasesMs: now.last_phases_ms };
    if (Date.now() > deadline) throw new Error('the maintenance run did not succeed within 10 minutes');
    await sleep(200);
  }
}
