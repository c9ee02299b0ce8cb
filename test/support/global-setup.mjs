// Plain JavaScript: Jest loads global setup outside its module mapper, so this file cannot import
// the project's TypeScript. It migrates once; each test file then starts from a copy.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { runMigrations as runQueueMigrations } from 'bullmq';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';

import { randomBytes } from 'node:crypto';

/** Every database of one run shares this prefix, so concurrent runs on one server never touch each other's. */
export const RUN_PREFIX_VARIABLE = 'NS_TEST_RUN_PREFIX';
const TEMPLATE_DUMP = join(process.cwd(), '.test-cache', 'template.tar');
const MIGRATIONS = join(process.cwd(), 'libs', 'dal', 'migrations');

async function migrateDatabase(connectionString) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    await runQueueMigrations(client, 'bullmq');
  } finally {
    await client.end();
  }
}

export async function withAdminClient(connectionString, run) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export default async function globalSetup() {
  const base = process.env.DATABASE_URL;
  if (base) {
    // Jest hands the environment of global setup down to the test workers.
    const prefix = `ns_test_${randomBytes(4).toString('hex')}`;
    process.env[RUN_PREFIX_VARIABLE] = prefix;
    const template = `${prefix}_template`;
    await withAdminClient(base, (client) => client.query(`CREATE DATABASE ${template}`));
    const url = new URL(base);
    url.pathname = `/${template}`;
    await migrateDatabase(url.toString());
    return;
  }
  const pglite = await PGlite.create();
  await pglite.exec('SET search_path TO public, bullmq');
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 10 });
  let port = 0;
  server.addEventListener('listening', (event) => (port = event.detail.port));
  await server.start();
  try {
    await migrateDatabase(`postgres://postgres@127.0.0.1:${port}/postgres`);
    const dump = await pglite.dumpDataDir('none');
    await mkdir(dirname(TEMPLATE_DUMP), { recursive: true });
    await writeFile(TEMPLATE_DUMP, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await server.stop();
    await pglite.close();
  }
}
