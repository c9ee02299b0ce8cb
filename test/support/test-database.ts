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
    drop: () =>
      withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
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
    drop: () =>
      withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
