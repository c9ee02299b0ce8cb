import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { queryNamed } from './database.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

const text = 'SELECT $1::int + 1 AS next';

describe('queryNamed on the embedded database, whose connections share one session', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    embedded = await EmbeddedPostgres.start();
    pool = new pg.Pool({ connectionString: embedded.connectionString, max: 3 });
  });
  afterAll(async () => {
    await pool?.end();
    await embedded?.stop();
  });

  it('sends the statement unnamed: a second connection finds no name already taken', async () => {
    // Six at once over three connections: each connection runs it, most of them twice.
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) => queryNamed<{ next: number }>(pool, text, [n], 'named_statements_spec')),
    );
    expect(answers.map(({ rows }) => rows[0].next)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pool.totalCount).toBe(3);
    const { rows } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_prepared_statements WHERE name LIKE $1`,
      ['named_statements_spec%'],
    );
    expect(rows[0].count).toBe(0);
  });
});
