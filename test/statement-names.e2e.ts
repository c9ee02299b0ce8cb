import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { connectDatabase, type DatabaseConnection } from '#dal';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Repeated statements go out under a name (each connection parses and plans them once) on a PostgreSQL
 * server, and unnamed on the embedded database, whose connections share one session.
 */
describe('statement names', () => {
  let t: TestApp;
  let connection: DatabaseConnection;
  beforeAll(async () => {
    t = await startTestApp();
    // One connection: what it prepared is what pg_prepared_statements shows.
    connection = connectDatabase(t.runtime.databaseUrl, 1);
  });
  afterAll(async () => {
    await connection?.pool.end();
    await t?.close();
  });

  const preparedCount = async () => {
    const { rows } = await connection.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement LIKE '%statement_names_e2e%'`,
    );
    return rows[0].count;
  };

  it('answers every repeated statement right, named on a server and unnamed on the embedded database', async () => {
    const { rows } = await connection.pool.query<{ embedded: boolean }>(`SELECT version() LIKE '%PGlite%' AS embedded`);
    const embedded = rows[0].embedded;
    const answers: number[] = [];
    for (let n = 0; n < 5; n++) {
      const result = await connection.db.execute<{ next: number }>(
        sql`SELECT ${n}::int + 1 AS next, 'statement_names_e2e' AS marker`,
      );
      answers.push(result.rows[0].next);
    }
    // And inside a transaction, on its own connection.
    await connection.db.transaction(async (tx) => {
      const result = await tx.execute<{ next: number }>(
        sql`SELECT ${9}::int + 1 AS next, 'statement_names_e2e' AS marker`,
      );
      answers.push(result.rows[0].next);
    });
    expect(answers).toEqual([1, 2, 3, 4, 5, 10]);
    expect(await preparedCount()).toBe(embedded ? 0 : 1);
  });
});
