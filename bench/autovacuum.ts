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
 * The rounds beside a measurement are throttled as autovacuum throttles itself (the cluster's
 * `autovacuum_vacuum_cost_delay` and cost limit): an unthrottled VACUUM takes the disk and a core in bursts
 * that a deployment's autovacuum never does, and they showed in the latency tails measured meanwhile.
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

/** Autovacuum's own cost-based delay and limit, as the cluster configures them (-1: the manual ones). */
const AUTOVACUUM_COST = `
  SELECT set_config('vacuum_cost_delay', CASE WHEN current_setting('autovacuum_vacuum_cost_delay') = '-1'
           THEN current_setting('vacuum_cost_delay') ELSE current_setting('autovacuum_vacuum_cost_delay') END, false),
         set_config('vacuum_cost_limit', CASE WHEN current_setting('autovacuum_vacuum_cost_limit') = '-1'
           THEN current_setting('vacuum_cost_limit') ELSE current_setting('autovacuum_vacuum_cost_limit') END, false)`;

/** A round beside a measurement: throttled as autovacuum is, and stopped with the bench. */
interface BackgroundRound {
  /** The backend that runs the round, for a cancel. */
  onBackend: (pid: number) => void;
  stopped: () => boolean;
}

/**
 * One round of the launcher over the tables that are due now: at autovacuum's pace in the `background`
 * beside a measurement, unthrottled between steps, where nothing is measured.
 */
export async function vacuumDue(pool: pg.Pool, background?: BackgroundRound): Promise<void> {
  const client = await pool.connect();
  background?.onBackend((client as unknown as { processID: number }).processID);
  try {
    if (background) await client.query(AUTOVACUUM_COST);
    await vacuumTablesDue(client, vacuumRecord(pool), background?.stopped ?? (() => false));
  } finally {
    // A connection with changed settings is not given back to the pool.
    client.release(background !== undefined);
  }
}

async function vacuumTablesDue(client: pg.PoolClient, record: AutovacuumRecord, stopped: () => boolean): Promise<void> {
  const { rows } = await client.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE);
  for (const table of rows.filter((row) => row.vacuum || row.analyze)) {
    if (stopped()) return;
    const started = performance.now();
    // SKIP_LOCKED: autovacuum gives way to locks rather than queueing behind them.
    const options = [...(table.analyze ? ['ANALYZE'] : []), 'SKIP_LOCKED'].join(', ');
    const statement = table.vacuum ? `VACUUM (${options}) ${table.name}` : `ANALYZE (SKIP_LOCKED) ${table.name}`;
    const outcome = await client.query(statement).then(
      () => 'done' as const,
      (error: { code?: string }) => {
        // A partition the maintenance run dropped since the list was read is simply gone.
        if (error.code === '42P01') return 'gone' as const;
        // The bench stopped and canceled the round.
        if (error.code === '57014') return 'canceled' as const;
        throw error;
      },
    );
    if (outcome === 'canceled') return;
    if (outcome === 'gone') continue;
    record.busySeconds += (performance.now() - started) / 1000;
    if (table.vacuum) record.vacuums++;
    if (table.analyze) record.analyzes++;
  }
}

export interface Autovacuum {
  stop(): Promise<void>;
}

/**
 * A round every naptime until stopped, never two at once; a failed round fails the stop. Stopping cancels a
 * round in flight: a throttled VACUUM of a large partition can take minutes, which the bench need not wait for.
 */
export function startAutovacuum(pool: pg.Pool): Autovacuum {
  let running: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let roundBackend: number | undefined;
  let stopped = false;
  const background: BackgroundRound = { onBackend: (pid) => (roundBackend = pid), stopped: () => stopped };
  const round = () =>
    (running = running
      .then(() => (stopped ? undefined : vacuumDue(pool, background)))
      .finally(() => (roundBackend = undefined))
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }));
  const timer = setInterval(() => void round(), NAPTIME_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      stopped = true;
      if (roundBackend !== undefined) await pool.query('SELECT pg_cancel_backend($1)', [roundBackend]);
      await running;
      if (failure) throw failure;
    },
  };
}
