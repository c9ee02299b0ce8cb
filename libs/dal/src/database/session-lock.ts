import type pg from 'pg';

/** What `withSessionLock` did: ran the work (its value), or found the lock held elsewhere. */
export type LockedRun<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `work` while a connection of its own holds the session-level advisory lock `key` (two
 * 32-bit keys: a space apart from the one-key locks, e.g. the throttle's), so the work may span
 * many transactions. Another session holding it: nothing runs. The lock ends with the connection,
 * so a process that dies mid-work frees it. The embedded database serves every connection in one
 * session, where the lock never conflicts: there, one process is the only runner anyway.
 */
export async function withSessionLock<T>(
  pool: pg.Pool,
  key: readonly [number, number],
  work: () => Promise<T>,
): Promise<LockedRun<T>> {
  const client = await pool.connect();
  // A connection whose lock query failed may still hold the lock: it is closed rather than pooled.
  let broken: Error | undefined;
  const query = (text: string) =>
    client.query<{ locked: boolean }>(text, [...key]).catch((error: Error) => {
      broken = error;
      throw error;
    });
  try {
    const { rows } = await query('SELECT pg_try_advisory_lock($1, $2) AS locked');
    if (!rows[0].locked) return { acquired: false };
    try {
      return { acquired: true, value: await work() };
    } finally {
      await query('SELECT pg_advisory_unlock($1, $2)').catch(() => undefined);
    }
  } finally {
    client.release(broken);
  }
}
