import { sql } from 'drizzle-orm';
import { activityWriteLock, type Database, type DbExecutor } from '#dal';

/**
 * A transaction of the worker whose COMMIT does not wait for the WAL flush (`synchronous_commit =
 * off` for this transaction only). A PostgreSQL crash may then lose the last few hundred ms of such
 * commits — never reorder them, and never a client-side crash. That is safe for worker writes, and
 * only for them: each is idempotent (claim guards, unique (event, subscriber), (notification, step)
 * and (job, delivery key) keys) and every state a lost commit falls back to — an event `received` or
 * `processing`, a job `queued` or `running` — is one the recovery sweeper re-runs after its grace.
 * The API's trigger_events insert, the acknowledgement to the client, always commits synchronously.
 *
 * JIT compilation is off too: these are short keyed statements, but on tables whose statistics lag
 * a burst of inserts their estimated cost passes jit_above_cost, and compiling then took ~130 ms
 * for a statement that runs in 1 ms (a 100,000-recipient fan-out spent most of its database time so).
 */
export async function workerTransaction<T>(
  db: Database,
  work: (tx: DbExecutor) => Promise<T>,
  options: WorkerTransactionOptions = {},
): Promise<T> {
  const lock = options.writesActivityOf ? sql`, ${activityWriteLock(options.writesActivityOf)}` : sql``;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('synchronous_commit', 'off', true), set_config('jit', 'off', true)${lock}`);
    return work(tx);
  });
}

interface WorkerTransactionOptions {
  /**
   * The environment whose subscribers' activity (notifications, jobs, messages, execution details) the
   * transaction writes: it then never interleaves with a subscriber delete there (activityWriteLock).
   */
  writesActivityOf?: string;
}
