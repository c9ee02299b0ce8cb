import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
// The built service's data layer (package.json "imports": dist/libs/dal): run `npm run build` first.
import { connectDatabase, EmbeddedPostgres, EnvironmentRepository, runMigrations, SubscriberRepository } from '#dal';

/**
 * How long a subscriber delete (SubscriberRepository.softDelete: the whole erasure, one transaction)
 * takes for subscribers with 0, 100 and `--notifications` notifications, in an environment holding
 * `--events` trigger events of other subscribers; the large one without, then with, the index that
 * bounds the search of trigger bodies (subscriber-erasure.ts). Each notification of the subject comes
 * with its own trigger event naming it inline, three jobs, three execution details and two messages.
 * Not part of `npm run bench`; after `npm run build`:
 *
 *   node bench/subscriber-erasure.mjs [--notifications=10000] [--events=200000] [--embedded]
 *
 * Server: PostgreSQL on 127.0.0.1:5432 as postgres, database ns_erasure dropped and recreated.
 * `--embedded`: PGlite in memory, as `npm start` runs without DATABASE_URL.
 */
const NAMED_INDEX = `CREATE INDEX trigger_events_named_subscribers_idx ON trigger_events USING gin ((
  jsonb_path_query_array(request, '$.to ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.to.subscriberId', '{}', true)
  || jsonb_path_query_array(request, '$.to.exclude[*]', '{}', true)
  || jsonb_path_query_array(request, '$.actor ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.actor.subscriberId', '{}', true)) jsonb_path_ops)`;

const option = (name, fallback) => {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return flag ? Number(flag.split('=')[1]) : fallback;
};

/** A subscriber and `count` notifications of it, each with its event (naming it inline), jobs, details and messages. */
async function seedSubject(connection, scope, name, count) {
  const { pool } = connection;
  const id = randomUUID();
  const workflowId = randomUUID();
  await pool.query(
    `INSERT INTO subscribers (id, environment_id, organization_id, subscriber_id, email, phone, data)
     VALUES ($4, $1, $2, $3, $3::text || '@bench.test', '+15555550100', '{"plan": "gold"}')`,
    [scope.environmentId, scope.organizationId, name, id],
  );
  await pool.query(
    `INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, status, request)
     SELECT gen_random_uuid(), $1, $2, 'tx-' || $3::text || '-' || g, $4, 'done', jsonb_build_object(
       'name', 'bench',
       'to', jsonb_build_array(jsonb_build_object('subscriberId', $3::text, 'email', $3::text || '@bench.test', 'data', jsonb_build_object('n', g))),
       'payload', jsonb_build_object('text', repeat('x', 800), 'n', g))
     FROM generate_series(1, $5::int) g`,
    [scope.environmentId, scope.organizationId, name, workflowId, count],
  );
  await pool.query(
    `INSERT INTO notifications (id, environment_id, organization_id, event_id, subscriber_id, workflow_id, transaction_id, "to")
     SELECT gen_random_uuid(), e.environment_id, e.organization_id, e.id, $2, e.workflow_id, e.transaction_id, e.request -> 'to' -> 0
     FROM trigger_events e WHERE e.environment_id = $1 AND e.workflow_id = $3`,
    [scope.environmentId, id, workflowId],
  );
  await pool.query(
    `INSERT INTO jobs (id, environment_id, organization_id, notification_id, subscriber_id, workflow_id, transaction_id, step_index, step, type, status)
     SELECT gen_random_uuid(), n.environment_id, n.organization_id, n.id, n.subscriber_id, n.workflow_id, n.transaction_id, s.i, '{}', s.type, 'completed'
     FROM notifications n CROSS JOIN (VALUES (0, 'in_app'), (1, 'email'), (2, 'http_request')) AS s(i, type)
     WHERE n.environment_id = $1 AND n.subscriber_id = $2`,
    [scope.environmentId, id],
  );
  await pool.query(
    `INSERT INTO execution_details (id, environment_id, organization_id, job_id, notification_id, subscriber_id, status, detail, raw)
     SELECT gen_random_uuid(), j.environment_id, j.organization_id, j.id, j.notification_id, j.subscriber_id, 'Success', 'sent', '{"to":"' || $3::text || '@bench.test"}'
     FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.environment_id = $1 AND n.subscriber_id = $2`,
    [scope.environmentId, id, name],
  );
  await pool.query(
    `INSERT INTO messages (id, environment_id, organization_id, notification_id, job_id, subscriber_id, transaction_id, channel, content, email)
     SELECT gen_random_uuid(), j.environment_id, j.organization_id, j.notification_id, j.id, j.subscriber_id, j.transaction_id, j.type,
       to_jsonb('Hello ' || $3::text), CASE WHEN j.type = 'email' THEN $3::text || '@bench.test' END
     FROM jobs j JOIN notifications n ON n.id = j.notification_id
     WHERE n.environment_id = $1 AND n.subscriber_id = $2 AND j.step_index < 2`,
    [scope.environmentId, id, name],
  );
  await pool.query(
    `INSERT INTO preferences (id, environment_id, organization_id, subscriber_id, channels) VALUES (gen_random_uuid(), $1, $2, $3, '{"sms": false}')`,
    [scope.environmentId, scope.organizationId, id],
  );
}

/** `count` events of other subscribers (one inline recipient each, as large as the subject's), with their notification and jobs. */
async function seedOthers(connection, scope, count) {
  const { pool } = connection;
  const workflowId = randomUUID();
  await pool.query(
    `INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, status, request)
     SELECT gen_random_uuid(), $1, $2, 'tx-other-' || g, $3, 'done', jsonb_build_object(
       'name', 'bench',
       'to', jsonb_build_array(jsonb_build_object('subscriberId', 'other-' || (g % 5000), 'email', 'other-' || (g % 5000) || '@bench.test')),
       'payload', jsonb_build_object('text', repeat('x', 800), 'n', g))
     FROM generate_series(1, $4::int) g`,
    [scope.environmentId, scope.organizationId, workflowId, count],
  );
  await pool.query(
    `INSERT INTO notifications (id, environment_id, organization_id, event_id, subscriber_id, workflow_id, transaction_id)
     SELECT gen_random_uuid(), e.environment_id, e.organization_id, e.id, gen_random_uuid(), e.workflow_id, e.transaction_id
     FROM trigger_events e WHERE e.environment_id = $1 AND e.workflow_id = $2`,
    [scope.environmentId, workflowId],
  );
  await pool.query(
    `INSERT INTO jobs (id, environment_id, organization_id, notification_id, subscriber_id, workflow_id, transaction_id, step_index, step, type, status)
     SELECT gen_random_uuid(), n.environment_id, n.organization_id, n.id, n.subscriber_id, n.workflow_id, n.transaction_id, s.i, '{}', 'in_app', 'completed'
     FROM notifications n CROSS JOIN generate_series(0, 2) AS s(i) WHERE n.environment_id = $1 AND n.workflow_id = $2`,
    [scope.environmentId, workflowId],
  );
}

async function timedDelete(connection, scope, name) {
  const started = performance.now();
  const deleted = await new SubscriberRepository(connection.db).softDelete(scope.environmentId, name);
  if (!deleted) throw new Error(`${name} was not deleted`);
  return performance.now() - started;
}

async function main() {
  const notifications = option('notifications', 10_000);
  const events = option('events', 200_000);
  const embedded = process.argv.includes('--embedded') ? await EmbeddedPostgres.start() : undefined;
  const url =
    embedded?.connectionString ?? (await recreateDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'ns_erasure'));
  const connection = connectDatabase(url, 4);
  const log = (line) => process.stdout.write(`${line}\n`);
  try {
    await runMigrations(connection.pool);
    const [environment] = await new EnvironmentRepository(connection.db).createOrganization('Erasure bench', [
      'Development',
    ]);
    const scope = { environmentId: environment.id, organizationId: environment.organizationId };
    let started = performance.now();
    await seedOthers(connection, scope, events);
    for (const [name, count] of [
      ['subject-large-a', notifications],
      ['subject-large-b', notifications],
      ['subject-small', 100],
      ['subject-empty', 0],
    ])
      await seedSubject(connection, scope, name, count);
    await connection.pool.query('VACUUM ANALYZE');
    log(`${embedded ? 'embedded PGlite' : 'PostgreSQL server'}: ${events} other events; seeded in ${seconds(started)}`);
    log(
      `delete, ${notifications} notifications, no index on trigger bodies: ${ms(await timedDelete(connection, scope, 'subject-large-a'))}`,
    );
    started = performance.now();
    await connection.pool.query(NAMED_INDEX);
    const size = await connection.pool.query(
      `SELECT pg_size_pretty(pg_relation_size('trigger_events_named_subscribers_idx')) AS size`,
    );
    log(`index on trigger bodies built in ${seconds(started)}, ${size.rows[0].size}`);
    await connection.pool.query('ANALYZE trigger_events');
    log(
      `delete, ${notifications} notifications, with the index: ${ms(await timedDelete(connection, scope, 'subject-large-b'))}`,
    );
    log(`delete, 100 notifications, with the index: ${ms(await timedDelete(connection, scope, 'subject-small'))}`);
    log(`delete, no activity, with the index: ${ms(await timedDelete(connection, scope, 'subject-empty'))}`);
  } finally {
    await connection.pool.end();
    await embedded?.stop();
  }
}

/** Drops and recreates the database; returns its URL. */
async function recreateDatabase(adminUrl, name) {
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

const ms = (value) => `${Math.round(value)} ms`;
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

await main();
