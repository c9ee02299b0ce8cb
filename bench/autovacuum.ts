import type pg from 'pg';

/**
 * What PostgreSQL's autovacuum would do, done by the bench: this machine's cluster runs with
 * autovacuum off (its configuration is not the project's), and the deployments users run have it
 * on. Tables past PostgreSQL's default thresholds are vacuumed or analyzed, one at a time, as one
 * autovacuum worker would:
 * - analyze when rows changed since the last analyze > 50 + 10 % of the table,
 * - vacuum when dead rows > 50 + 20 %, or rows inserted since the last vacuum > 1000 + 20 %.
 * Leaf tables only: autovacuum never processes a partitioned parent, nor a table nothing changed
 * (an empty partition made ahead of time keeps no statistics, so plans assume a small table, not none).
 */
const NAPTIME_MS = 60_000;

const DUE = `
  SELECT format('%I.%I', t.schemaname, t.relname) AS name,
         t.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
           OR t.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) AS vacuum,
         t.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) AS analyze
  FROM pg_stat_user_tables t
  JOIN pg_class c ON c.oid = t.relid
  WHERE c.relkind = 'r'`;

export interface AutovacuumRecord {
  vacuums: number;
  analyzes: number;
  /** Time spent in VACUUM and ANALYZE statements. */
  busySeconds: number;
}

/** By pool: the rounds run between a deployment's steps and those during them add up. */
const records = new WeakMap<pg.Pool, AutovacuumRecord>();

/** What the rounds on this pool have done so far (a live object). */
export function vacuumRecord(pool: pg.Pool): AutovacuumRecord {
  let record = records.get(pool);
  if (!record) records.set(pool, (record = { vacuums: 0, analyzes: 0, busySeconds: 0 }));
  return record;
}

/** One round of the launcher over the tables that are due now. */
export async function vacuumDue(pool: pg.Pool): Promise<void> {
  const record = vacuumRecord(pool);
  const { rows } = await pool.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE);
  for (const table of rows.filter((row) => row.vacuum || row.analyze)) {
    const started = performance.now();
    // SKIP_LOCKED: autovacuum gives way to locks rather than queueing behind them.
    const options = [...(table.analyze ? ['ANALYZE'] : []), 'SKIP_LOCKED'].join(', ');
    const statement = table.vacuum ? `VACUUM (${options}) ${table.name}` : `ANALYZE (SKIP_LOCKED) ${table.name}`;
    // A partition the maintenance run dropped since the list was read is simply gone.
    const done = await pool.query(statement).then(
      () => true,
      (error: { code?: string }) => {
        if (error.code === '42P01') return false;
        throw error;
      },
    );
    if (!done) continue;
    record.busySeconds += (performance.now() - started) / 1000;
    if (table.vacuum) record.vacuums++;
    if (table.analyze) record.analyzes++;
  }
}

export interface Autovacuum {
  stop(): Promise<void>;
}

/** A round every naptime until stopped, never two at once; a failed round fails the stop. */
export function startAutovacuum(pool: pg.Pool): Autovacuum {
  let running: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  const round = () =>
    (running = running
      .then(() => vacuumDue(pool))
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }));
  const timer = setInterval(() => void round(), NAPTIME_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (failure) throw failure;
    },
  };
}
