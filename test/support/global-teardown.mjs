import { withAdminClient } from './global-setup.mjs';

export default async function globalTeardown() {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  await withAdminClient(base, async (client) => {
    const left = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'ns_test_%'`);
    for (const { datname } of left.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
  
}
