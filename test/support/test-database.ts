import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#common';

/** Where global setup leaves the migrated embedded database for every test file to start from. */
const TEMPLATE_DUMP = join(process.cwd(), '.test-cache', 'template.tar');

/** The PostgreSQL server the suite runs against, or undefined for embedded PGlite. */
export function serverDatabaseUrl(): string | undefined {
  return loadConfig({ ENCRYPTION_KEY: '0'.repeat(64) }).databaseUrl;
}

/** Set by global setup (test/support/global-setup.mjs) for the server pass. */
export function runPrefix(): string {
  const prefix = process.env.NS_TEST_RUN_PREFIX;
  if (!prefix) throw new Error('NS_TEST_RUN_PREFIX is not set: the e2e global setup did not run');
  return prefix;
}

export function databaseUrlFor(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(base: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** For a server: the URL of a fresh database cloned from the template. */
  databaseUrl?: string;
  /** For embedded mode: the template data directory to load. */
  loadDataDir?: Blob;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = serverDatabaseUrl();
  if (!base) {
    const dump = await readFile(TEMPLATE_DUMP);
    return { loadDataDir: new Blob([dump]), drop: () => Promise.resolve() };
  }
  const prefix = runPrefix();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${prefix}_template`));
  return {
    databaseUrl: databaseUrlFor(base, name),
    drop: () => dropWhenClosed(base, name),
  };
}

/** How long a drop waits for the connections of pools just ended to go. */
const CLOSING_CONNECTIONS_MS = 2_000;

/**
 * Drops a test's database once its connections are gone. A pool's `end()` resolves before its
 * connections have closed: dropping (WITH FORCE) under them sends each a termination error, which a
 * client with no error handler throws in the test process. A connection left open longer is
 * terminated all the same.
 */
async function dropWhenClosed(base: string, name: string): Promise<void> {
  await withAdminClient(base, async (client) => {
    const deadline = Date.now() + CLOSING_CONNECTIONS_MS;
    for (;;) {
      const { rows } = await client.query<{ open: number }>(
        'SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0].open === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

export interface EmptyServerDatabase {
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * An empty database on the PostgreSQL server, named after `label`, for tests whose service processes
 * migrate and seed it themselves (several processes on one database).
 */
export function emptyServerDatabase(label: string): EmptyServerDatabase {
  const base = serverDatabaseUrl()!;
  const name = `${runPrefix()}_${label}_${randomBytes(4).toString('hex')}`;
  return {
    url: databaseUrlFor(base, name),
    create: () => withAdminClient(base, (client) => client.query(`CREATE DATABASE ${name}`)).then(() => undefined),
    drop: () => dropWhenClosed(base, name),
  };
}
