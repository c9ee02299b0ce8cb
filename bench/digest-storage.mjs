import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * What one digested event costs in storage: `--events` triggers, each to the same `--subscribers`
 * subscribers with an incompressible payload of `--payload-bytes`, gathered by a 5-second digest into
 * one in-app message per subscriber. Reports, per digested event (one event for one subscriber), the
 * growth of the activity tables (trigger_events, notifications, jobs, execution_details, messages,
 * their partitions, indexes and TOAST included; the layout before partitioning too) and the WAL written. Talks to a running service over HTTP and reads
 * its PostgreSQL directly, so the same script measures any version of the service. Not part of
 * `npm run bench`:
 *
 *   node bench/digest-storage.mjs --url=http://127.0.0.1:3000 --api-key=… --database-url=postgres://…
 *     [--subscribers=50] [--events=20] [--payload-bytes=2048]
 *
 * Run it alone against a fresh database: every write to the database during the run is counted.
 */
const TABLES = ['trigger_events', 'notifications', 'jobs', 'execution_details', 'messages'];
const UNFINISHED = `'pending', 'queued', 'delayed', 'running'`;

const option = (name, fallback) => {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return flag ? flag.slice(name.length + 3) : fallback;
};
const url = option('url', 'http://127.0.0.1:3000');
const apiKey = option('api-key');
const databaseUrl = option('database-url');
const subscribers = Number(option('subscribers', '50'));
const events = Number(option('events', '20'));
const payloadBytes = Number(option('payload-bytes', '2048'));
if (!apiKey || !databaseUrl) throw new Error('--api-key and --database-url are required');

async function api(method, path, body) {
  const response = await globalThis.fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function createWorkflow(identifier, steps) {
  await api('POST', '/v1/workflows', { name: identifier, identifier, steps });
}

/** Waits until no job is left to run and `messages` has grown to `count`. */
async function settle(pool, count) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await pool.query(
      `SELECT (SELECT count(*) FROM jobs WHERE status IN (${UNFINISHED}))::int AS unfinished,
        (SELECT count(*) FROM messages)::int AS messages`,
    );
    if (rows[0].unfinished === 0 && rows[0].messages >= count) return;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(rows[0])}`);
    await sleep(250);
  }
}

async function storage(pool) {
  const { rows } = await pool.query(
    `SELECT pg_current_wal_lsn()::text AS lsn,
       (SELECT sum(pg_total_relation_size(c.oid))::bigint FROM unnest($1::text[]) t
          JOIN pg_class c ON c.oid = t::regclass OR c.oid IN (SELECT relid FROM pg_partition_tree(t::regclass)))::text AS bytes`,
    [TABLES],
  );
  return rows[0];
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
try {
  const run = randomBytes(3).toString('hex');
  const to = Array.from({ length: subscribers }, (_, index) => `digest-storage-${run}-${index}`);
  // The subscribers exist before the measurement: creating them is not the digest's cost.
  await createWorkflow(`digest-storage-setup-${run}`, [{ template: { type: 'in_app', content: 'hello' } }]);
  await api('POST', '/v1/events/trigger', { name: `digest-storage-setup-${run}`, to });
  await settle(pool, subscribers);
  const digest = `digest-storage-${run}`;
  await createWorkflow(digest, [
    { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'seconds' } },
    { template: { type: 'in_app', content: '{{step.total_count}} events' } },
  ]);
  await pool.query('CHECKPOINT');
  const before = await storage(pool);
  for (let n = 0; n < events; n++) {
    // Random base64 does not compress: a copy of it anywhere counts at full size.
    const payload = { n, blob: randomBytes(Math.ceil((payloadBytes * 3) / 4)).toString('base64') };
    await api('POST', '/v1/events/trigger', { name: digest, to, payload });
  }
  await settle(pool, 2 * subscribers);
  const after = await storage(pool);
  const { rows } = await pool.query('SELECT pg_wal_lsn_diff($1, $2)::bigint::text AS wal', [after.lsn, before.lsn]);
  const digested = subscribers * events;
  const perEvent = (bytes) => Math.round(Number(bytes) / digested);
  process.stdout.write(
    `${events} events × ${subscribers} subscribers, payload ${payloadBytes} B: ` +
      `tables +${perEvent(Number(after.bytes) - Number(before.bytes))} B and WAL ${perEvent(rows[0].wal)} B per digested event\n`,
  );
} finally {
  await pool.end();
}
