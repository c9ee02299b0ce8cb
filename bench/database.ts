import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { vacuumDue } from './autovacuum.js';

export const SUBSCRIBER_PREFIX = 'bench-sub-';
export const TOPIC_KEY = 'bench-topic';
const SEED_BATCH = 100_000;

/** Drops and recreates the database; returns its URL. */
export async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`database name "${name}" must be a plain lower-case identifier`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface Scope {
  environmentId: string;
  organizationId: string;
}

/** The Development environment the service created on first boot (the API_KEY belongs to it). */
export async function developmentScope(pool: pg.Pool): Promise<Scope> {
  const { rows } = await pool.query<{ id: string; organization_id: string }>(
    `SELECT id, organization_id FROM environments WHERE name = 'Development' LIMIT 1`,
  );
  if (rows.length === 0) throw new Error('no Development environment: did the service boot on this database?');
  return { environmentId: rows[0].id, organizationId: rows[0].organization_id };
}

/** Subscribers bench-sub-1..count, and the first topicSize of them in one topic; in batches. */
export async function seedSubscribers(pool: pg.Pool, scope: Scope, count: number, topicSize: number): Promise<void> {
  for (let from = 1; from <= count; from += SEED_BATCH) {
    const to = Math.min(count, from + SEED_BATCH - 1);
    await pool.query(
      `INSERT INTO subscribers (id, environment_id, organization_id, subscriber_id, first_name, email)
       SELECT gen_random_uuid(), $1, $2, $3 || g, 'Bench ' || g, $3 || g || '@bench.test'
       FROM generate_series($4::int, $5::int) g`,
      [scope.environmentId, scope.organizationId, SUBSCRIBER_PREFIX, from, to],
    );
  }
  await seedTopic(pool, scope, TOPIC_KEY, topicSize);
  await pool.query('ANALYZE subscribers, topic_subscribers');
}

/** A topic of the seeded subscribers bench-sub-1..size. */
export async function seedTopic(pool: pg.Pool, scope: Scope, key: string, size: number): Promise<void> {
  const topicId = randomUUID();
  await pool.query(`INSERT INTO topics (id, environment_id, organization_id, key, name) VALUES ($1, $2, $3, $4, $5)`, [
    topicId,
    scope.environmentId,
    scope.organizationId,
    key,
    `Bench ${key}`,
  ]);
  await pool.query(
    `INSERT INTO topic_subscribers (topic_id, subscriber_id, environment_id, organization_id, external_subscriber_id)
     SELECT $1, s.id, s.environment_id, s.organization_id, s.subscriber_id
     FROM generate_series(1, $4::int) g
     JOIN subscribers s ON s.environment_id = $2 AND s.subscriber_id = $3 || g`,
    [topicId, scope.environmentId, SUBSCRIBER_PREFIX, size],
  );
  await pool.query('ANALYZE topic_subscribers');
}

/** What the sustained workflows' in_app step says, as a template. */
export const SUSTAINED_CONTENT = 'Hello {{subscriber.firstName}}, order {{payload.orderId}} is on its way';

const inAppStep = (content: string) => ({
  template: { type: 'in_app', content },
});

/**
 * Creates a workflow with one in_app step through POST /v1/workflows; while that route does not
 * exist (404/405) the row is written with SQL in the stored shape instead. Returns its id.
 */
export async function createWorkflow(
  pool: pg.Pool,
  scope: Scope,
  api: ApiClient,
  identifier: string,
  /** `{{t.greeting}}` instead of its text, looked up in the workflow's translations (see translations.ts). */
  translated = false,
): Promise<{ id: string; via: 'api' | 'sql' }> {
  const content = translated ? '{{t.greeting}}' : SUSTAINED_CONTENT;
  const res = await api.request('POST', '/v1/workflows', {
    name: identifier,
    identifier,
    active: true,
    ...(translated ? { isTranslationEnabled: true } : {}),
    steps: [inAppStep(content)],
  });
  if (res.status === 201 || res.status === 200) {
    const body = (await res.json()) as { _id?: string; data?: { _id?: string } };
    const id = body._id ?? body.data?._id;
    if (!id) throw new Error(`POST /v1/workflows answered without _id: ${JSON.stringify(body)}`);
    return { id, via: 'api' };
  }
  if (res.status !== 404 && res.status !== 405)
    throw new Error(`POST /v1/workflows failed ${res.status}: ${await res.text()}`);

  await pool.query(
    `INSERT INTO notification_groups (id, environment_id, organization_id, name) VALUES (gen_random_uuid(), $1, $2, 'General')
     ON CONFLICT DO NOTHING`,
    [scope.environmentId, scope.organizationId],
  );
  const step = {
    _id: randomUUID(),
    active: true,
    shouldStopOnFail: false,
    template: { type: 'in_app', content },
    filters: [],
  };
  const id = randomUUID();
  await pool.query(
    `INSERT INTO workflows (id, environment_id, organization_id, identifier, name, active, steps, notification_group_id)
     SELECT $1, $2, $3, $4, $4, true, $5::jsonb, id FROM notification_groups WHERE environment_id = $2 AND name = 'General'`,
    [id, scope.environmentId, scope.organizationId, identifier, JSON.stringify([step])],
  );
  return { id, via: 'sql' };
}

/**
 * A UUIDv7 of the time `at` (an SQL expression), as the service makes them: the activity tables are
 * partitioned by the day in their ids, so seeded rows must carry theirs.
 */
export const idAt = (at: string): string =>
  `(lpad(to_hex((extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid`;

/** The partitions of the activity tables from `daysBack` days ago to today (the service makes the next week's). */
export async function ensurePartitions(pool: pg.Pool, daysBack: number): Promise<void> {
  for (const table of ['notifications', 'trigger_events', 'jobs', 'execution_details', 'messages'])
    await pool.query(`SELECT activity_partitions_ensure($1, current_date - $2::int, current_date)`, [table, daysBack]);
}

/**
 * `rows` notifications of one workflow spread over past seconds (older than anything the run
 * triggers), round-robin over the seeded subscribers, each with its trigger event (which holds the
 * payload the feed shows), one completed in_app job and its execution detail, as the engine writes
 * them for an in_app step.
 */
export async function seedFeed(
  pool: pg.Pool,
  scope: Scope,
  workflowId: string,
  rows: number,
  subscribers: number,
): Promise<void> {
  const step = JSON.stringify({
    _id: randomUUID(),
    active: true,
    shouldStopOnFail: false,
    template: { type: 'in_app', content: 'x' },
    filters: [],
  });
  await ensurePartitions(pool, Math.ceil((3600 + rows) / 86_400) + 1);
  for (let from = 1; from <= rows; from += SEED_BATCH) {
    const to = Math.min(rows, from + SEED_BATCH - 1);
    await pool.query(
      `WITH e AS (
         INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, request, status, created_at, updated_at)
         SELECT ${idAt('now() - make_interval(secs => 3600 + g)')}, $1, $2, 'bench-feed-' || g, $3,
                jsonb_build_object('name', 'bench-feed', 'to', $6::text || ((g % $7::int) + 1), 'payload', jsonb_build_object('n', g), 'overrides', '{}'::jsonb), 'done',
                now() - make_interval(secs => 3600 + g), now() - make_interval(secs => 3600 + g)
         FROM generate_series($4::int, $5::int) g
         RETURNING id, transaction_id, request ->> 'to' AS to_id, created_at),
       n AS (
         INSERT INTO notifications (id, environment_id, organization_id, event_id, subscriber_id, workflow_id, transaction_id, channels, created_at, updated_at)
         SELECT ${idAt('e.created_at')}, $1, $2, e.id, s.id, $3, e.transaction_id, '{in_app}', e.created_at, e.created_at
         FROM e
         JOIN subscribers s ON s.environment_id = $1 AND s.subscriber_id = e.to_id
         RETURNING id, subscriber_id, transaction_id, created_at),
       j AS (
         INSERT INTO jobs (id, environment_id, organization_id, notification_id, subscriber_id, workflow_id, transaction_id, step_index, step, type, status, created_at, updated_at)
         SELECT ${idAt('n.created_at')}, $1, $2, n.id, n.subscriber_id, $3, n.transaction_id, 0, $8::jsonb, 'in_app', 'completed', n.created_at, n.created_at FROM n
         RETURNING id, notification_id, subscriber_id, created_at)
       INSERT INTO execution_details (id, environment_id, organization_id, job_id, notification_id, subscriber_id, status, detail, source, provider_id, created_at, updated_at)
       SELECT ${idAt('j.created_at')}, $1, $2, j.id, j.notification_id, j.subscriber_id, 'Success', 'Message created', 'Internal', 'novu', j.created_at, j.created_at FROM j`,
      [scope.environmentId, scope.organizationId, workflowId, from, to, SUBSCRIBER_PREFIX, subscribers, step],
    );
  }
  await settle(pool);
}

/**
 * Before a measurement: what autovacuum would have done by now on a deployment (seeded rows vacuumed
 * and analyzed: they stand for history that has been there a while; a table nothing changed left
 * alone), and a CHECKPOINT (the previous step's dirty pages are written now, not during this one).
 */
export async function settle(pool: pg.Pool): Promise<void> {
  await vacuumDue(pool);
  await pool.query('CHECKPOINT');
}

export async function countMessages(
  pool: pg.Pool,
  where: { workflowId?: string; transactionId?: string },
  environmentId: string,
): Promise<number> {
  const { rows } = where.transactionId
    ? await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM messages WHERE environment_id = $1 AND transaction_id = $2',
        [environmentId, where.transactionId],
      )
    : await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM messages WHERE environment_id = $1 AND workflow_id = $2',
        [environmentId, where.workflowId],
      );
  return rows[0].n;
}

export interface ApiClient {
  baseUrl: string;
  headers: Record<string, string>;
  request(method: string, path: string, body?: unknown): Promise<Response>;
}

export function apiClient(port: number, apiKey: string): ApiClient {
  const baseUrl = `http://127.0.0.1:${port}`;
  const headers = { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json' };
  return {
    baseUrl,
    headers,
    request: (method, path, body) =>
      fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  };
}

/** Bytes. */
export async function databaseSize(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ size: string }>('SELECT pg_database_size(current_database())::text AS size');
  return Number(rows[0].size);
}
