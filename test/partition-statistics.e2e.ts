import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { newId } from '#common';
import { PartitionStatistics } from '#event-processing';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The week partition of trigger_events that holds the ids made now. */
async function currentPartition(t: TestApp): Promise<string> {
  const { rows } = await t.runtime.database.pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'trigger_events'::regclass AND pg_get_expr(c.relpartbound, c.oid) LIKE 'FOR VALUES FROM%'
       AND $1::uuid >= (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::uuid
       AND $1::uuid < (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::uuid`,
    [newId()],
  );
  expect(rows).toHaveLength(1);
  return rows[0].name;
}

/** The plan a connection keeps for a prepared lookup by transactionId, as EXPLAIN shows it. */
const explainProbe = async (client: pg.PoolClient, environmentId: string) =>
  (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE stats_probe('${environmentId}', 'none')`)).rows
    .map((row) => row['QUERY PLAN'])
    .join('\n');

describe('partition statistics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a plan kept from when the week partition was empty is made again once the partition has grown', async () => {
    const partition = await currentPartition(t);
    const client = await t.runtime.database.pool.connect();
    try {
      // Statistics taken while the partition was empty (a VACUUM, or an autovacuum run at the start of
      // the week); then a generic plan at once, as a prepared hot statement gets after a few executions.
      await client.query(`ANALYZE ${partition}`);
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(
        'PREPARE stats_probe(uuid, text) AS SELECT 1 FROM trigger_events WHERE environment_id = $1 AND transaction_id = $2',
      );
      expect(await explainProbe(client, t.environment.id)).toContain(`Seq Scan on ${partition}`);

      const ids = Array.from({ length: 3_000 }, () => newId());
      await client.query(
        `INSERT INTO trigger_events (id, environment_id, organization_id, transaction_id, workflow_id, request)
         SELECT id, $2, $3, 'stats-' || id, $2, '{"payload":{}}'::jsonb FROM unnest($1::uuid[]) id`,
        [ids, t.environment.id, t.environment.organizationId],
      );
      // Grown, but nothing told the connection: it would read the 3,000 rows for every lookup.
      expect(await explainProbe(client, t.environment.id)).toContain(`Seq Scan on ${partition}`);

      const statistics = t.app.get(PartitionStatistics);
      expect(await statistics.refresh()).toContain(partition);
      expect(await explainProbe(client, t.environment.id)).toMatch(
        new RegExp(`Index (Only )?Scan using ${partition}_`),
      );
      // Analyzed: nothing has grown since.
      expect(await statistics.refresh()).not.toContain(partition);
    } finally {
      await client.query('DEALLOCATE stats_probe').catch(() => undefined);
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });
});
