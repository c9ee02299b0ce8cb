import { RUN_PREFIX_VARIABLE, withAdminClient } from './global-setup.mjs';

/** Drops this run's databases (its template and any a crashed test file left behind). */
export default async function globalTeardown() {
  const base = process.env.DATABASE_URL;
  const prefix = process.env[RUN_PREFIX_VARIABLE];
  if (!base || !prefix) return;
  await withAdminClient(base, async (client) => {
    const left = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}_%`]);
    for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}
