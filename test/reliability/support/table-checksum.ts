import type pg from 'pg';

/**
 * Written on a timer, not by requests: each api process's heartbeat (the presence sweeper's), so a
 * rejected request cannot be told apart from the clock there.
 */
const TIMER_WRITTEN_TABLES = ['api_processes'];

/** Row count and an order-independent hash of every row, per table of the public schema (timer-written ones left out). */
export class TableChecksum {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly sql: string,
  ) {}

  static async create(pool: pg.Pool): Promise<TableChecksum> {
    const { rows } = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const sql = rows
      .filter(({ table_name: name }) => !TIMER_WRITTEN_TABLES.includes(name))
      .map(
        ({ table_name: name }) =>
          `SELECT '${name}' AS t, count(*)::int AS n, coalesce(sum(hashtext(x::text)::bigint), 0)::text AS h FROM "${name}" x`,
      )
      .join(' UNION ALL ');
    return new TableChecksum(pool, sql);
  }

  async take(): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ t: string; n: number; h: string }>(this.sql);
    return new Map(rows.map((row) => [row.t, `${row.n}:${row.h}`]));
  }

  /** Names of the tables whose rows differ between two snapshots. */
  static changed(before: Map<string, string>, after: Map<string, string>): string[] {
    return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
  }
}
