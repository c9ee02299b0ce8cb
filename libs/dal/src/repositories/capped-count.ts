import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbExecutor } from '../database/database.js';

/**
 * Counting stops past this many rows, so a cursor list's total stays cheap on a million-row table
 * (a topic of a million members); the answer then says the count is capped.
 */
const COUNT_CAP = 50_000;

/** The total of a cursor list, as Novu's clients read it (`totalCount`, `totalCountCapped`). */
export interface CappedCount {
  totalCount: number;
  totalCountCapped: boolean;
}

/** Counts the rows of `table` matching `where`, up to `cap`. */
export async function cappedCount(
  db: DbExecutor,
  table: PgTable,
  where: SQL | undefined,
  cap = COUNT_CAP,
): Promise<CappedCount> {
  const matching = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(cap + 1)
    .as('matching');
  const [{ rows }] = await db.select({ rows: count() }).from(matching);
  return { totalCount: Math.min(rows, cap), totalCountCapped: rows > cap };
}
