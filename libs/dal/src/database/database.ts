import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { databaseStatements } from '#common';
import * as schema from '../schema/index.js';
import { StatementNames } from './statement-names.js';

/** `$client`: the pool, for the few hot statements sent without drizzle's query builder. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A database handle or an open transaction: repositories accept either. */
export type DbExecutor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseConnection {
  pool: pg.Pool;
  db: Database;
}

/**
 * A pool whose checked-out clients go back when their connection dies. Drizzle's `transaction()`
 * sends BEGIN before its try/finally, so a BEGIN that meets a dead connection never released its
 * client: each outage cost a pool slot for good, until every query waited forever (and `end()` too).
 */
class ReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    // pool.query checks out with a callback and always releases: only the promise form needs the guard.
    if (callback) return super.connect(callback);
    return super.connect().then(releaseWhenConnectionEnds);
  }
}

function releaseWhenConnectionEnds(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const releaseOnce = (error?: Error | boolean) => {
    client.removeListener('end', onEnd);
    if (released) return;
    released = true;
    release(error);
  };
  const onEnd = () => releaseOnce(new Error('the database connection ended while checked out'));
  client.once('end', onEnd);
  client.release = releaseOnce;
  return client;
}

/**
 * Counts every statement the client sends (db_statements_total), and sends the repeated ones under a
 * name (StatementNames) once the pool is known to give each connection a session of its own.
 */
function instrument(client: pg.PoolClient, statementNames: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, values?: unknown, ...rest: unknown[]) => {
    databaseStatements.inc();
    return query(statementNames.named(config, values), values, ...rest);
  }) as typeof client.query;
}

/** How long an unused connection stays open (as HikariCP's default idle timeout). */
const IDLE_CONNECTION_MS = 600_000;

export function connectDatabase(connectionString: string, poolSize: number): DatabaseConnection {
  // One registry per pool: a name stands for one text on every connection of the pool.
  const statementNames = new StatementNames();
  const pool = new ReleasingPool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    // A new session is expensive where it matters: it plans each hot statement over every partition of
    // the activity tables (~30 ms for the feed's on the first call, against ~2 ms after). Closing
    // idle connections after seconds made every burst after a quiet spell pay it again.
    idleTimeoutMillis: IDLE_CONNECTION_MS,
  });
  // An idle client losing its server (restart, outage) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // pg-pool detaches its own listener while a client is checked out (a transaction): a connection
  // dying then emitted an 'error' nobody heard, which killed the process (found by the database
  // outage scenario). The failing query still rejects; the pool discards the broken client.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    instrument(client, statementNames);
  });
  void learnSessionKind(pool, statementNames);
  return { pool, db: drizzle({ client: pool, schema }) };
}

/**
 * The embedded database (PGlite) serves every connection from one session, where a name one connection
 * prepared is already taken for the next: its statements go unnamed. Asked again after a failure (the
 * database unreachable at boot).
 */
async function learnSessionKind(pool: pg.Pool, statementNames: StatementNames): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { rows } = await pool.query<{ embedded: boolean }>(`SELECT version() LIKE '%PGlite%' AS embedded`);
      statementNames.enabled = !rows[0].embedded;
      return;
    } catch {
      if ((pool as { ending?: boolean }).ending) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)).unref());
    }
  }
}

/** pg error codes we act on (Drizzle wraps the driver error: look at err.cause too). */
export function pgErrorCode(error: unknown): string | undefined {
  const candidate = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = candidate?.code ?? candidate?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';

/**
 * Server-side ends of a session (57P01 admin shutdown, 57P02 crash shutdown, 57P03 starting up or
 * shutting down) and socket failures: the database is unreachable rather than the query wrong.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Connection-level failures: the database is unreachable rather than the query being wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code && (code.startsWith('08') || UNAVAILABLE_CODES.has(code))) return true;
  const message = String((error as Error)?.message ?? '') + String((error as { cause?: Error })?.cause?.message ?? '');
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message,
  );
}
