import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

/** Arbitrary constant naming our migration lock ("NOTI"). */
const MIGRATION_LOCK_KEY = 0x4e4f5449;

export function migrationsFolder(): string {
  // Works from the sources (tests) and from dist/ (the build copies the folder next to the compiled file).
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations');
}

/**
 * Applies the committed SQL migrations under a session advisory lock, so any number of processes
 * booting at once on one database migrate exactly once and all come up.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
