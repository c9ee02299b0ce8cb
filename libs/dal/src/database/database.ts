import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { databaseStatements } from '#common';
import * as schema from '../schema/index.js';

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

/** Counts every statement the client sends (db_statements_total): the round trips an operation costs. */
function countStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    databaseStatements.inc();
    return query(...args);
  }) as typeof client.query;
}

/** How long an unused connection stays open (as HikariCP's default idle timeout). */
const IDLE_CONNECTION_MS = 600_000;

export function connectDatabase(connectionString: string, poolSize: number): DatabaseConnection {
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
    countStatements(client);
  });
  return { pool, db: drizzle({ client: pool, schema }) };
}

const separateSessions = new WeakMap<pg.Pool, Promise<boolean>>();

/**
 * Whether each connection of the pool has a session of its own. The embedded database (PGlite) serves
 * every connection from one session, where a name one connection prepared is already taken for the next.
 */
function hasSeparateSessions(pool: pg.Pool): Promise<boolean> {
  let known = separateSessions.get(pool);
  if (known === undefined) {
    known = pool
      .query<{ embedded: boolean }>(`SELECT version() LIKE '%PGlite%' AS embedded`)
      .then(({ rows }) => !rows[0].embedded);
    // A failed check (the database unreachable) is asked again next time, not remembered.
    known.catch(() => separateSessions.delete(pool));
    separateSessions.set(pool, known);
  }
  return known;
}

/**
 * Statement names by statement text. Each stays prepared on every connection that ran it, so a request
 * choosing its filters freely must not mint names without end: past this many, statements go unnamed.
 */
const MAX_STATEMENT_NAMES = 64;
const statementNames = new Map<string, string>();

/**
 * The name to send `text` under, so each connection parses and plans it once (a statement over
 * partitioned tables plans longer than it runs); none on the embedded database or past the cap.
 */
async function nameFor(pool: pg.Pool, text: string, prefix: string): Promise<string | undefined> {
  if (!(await hasSeparateSessions(pool))) return undefined;
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES) {
    name = `${prefix}_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A query built with drizzle, named where sessions allow it (see nameFor). */
export async function executeNamed<Result>(
  pool: pg.Pool,
  query: PromiseLike<Result> & { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<Result> } },
  prefix: string,
): Promise<Result> {
  const name = await nameFor(pool, query.toSQL().sql, prefix);
  return name === undefined ? query : query.prepare(name).execute();
}

/** A hot statement, named where sessions allow it (see nameFor). */
export async function queryNamed<Row extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[],
  prefix: string,
): Promise<pg.QueryResult<Row>> {
  const name = await nameFor(pool, text, prefix);
  return pool.query<Row>(name === undefined ? { text, values } : { name, text, values });
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
