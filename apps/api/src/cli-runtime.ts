import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from '#common';
import { connectDatabase } from '#dal';
import { findDataDirHolder, type DataDirHolder } from './data-dir-claim.js';
import { prepareRuntime, type Runtime } from './runtime.js';

/** A secret the process holding DATA_DIR generated; one that is missing is not made up. */
function existingDataDirSecret(dataDir: string, name: string, missing: string): string {
  const file = join(dataDir, name);
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!kept) throw new Error(`${file} is missing: ${missing}`);
  return kept;
}

/** What the operator CLI needs: the database, and the config with its encryption key. */
export type CliRuntime = Pick<Runtime, 'config' | 'database' | 'close'>;

/** A service starting on DATA_DIR publishes its port once migrated: long enough for a first boot. */
const HOLDER_READY_TIMEOUT_MS = 30_000;

/** The live holder of DATA_DIR once its database is ready; undefined when no process holds it. */
async function readyDataDirHolder(dataDir: string): Promise<DataDirHolder | undefined> {
  const deadline = Date.now() + HOLDER_READY_TIMEOUT_MS;
  for (;;) {
    const holder = findDataDirHolder(dataDir);
    if (!holder || holder.port) return holder;
    if (Date.now() > deadline)
      throw new Error(`DATA_DIR ${dataDir} is held by a process (pid ${holder.pid}) whose database is not ready yet`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The CLI's database. When a live process (`npm start`) holds DATA_DIR's embedded database, the CLI
 * logs in through that process's loopback port, so what it writes is what the service reads at
 * once; opening the files itself would make a second PGlite beside the service's, which sees none
 * of its writes, is not seen by it, and can corrupt the files. When nothing holds DATA_DIR, the CLI
 * opens the database as the service does (and holds it meanwhile).
 */
export async function prepareCliRuntime(config: AppConfig, logger: Logger): Promise<CliRuntime> {
  if (config.databaseUrl) return prepareRuntime(config, logger);
  const holder = await readyDataDirHolder(config.dataDir);
  if (!holder) return prepareRuntime(config, logger);
  const password = existingDataDirSecret(config.dataDir, 'database.password', 'the running service keeps it there');
  config.encryptionKey ||= existingDataDirSecret(
    config.dataDir,
    'encryption.key',
    'give the CLI the ENCRYPTION_KEY the running service was given',
  );
  const address = `127.0.0.1:${holder.port}`;
  const database = connectDatabase(`postgres://postgres:${encodeURIComponent(password)}@${address}/postgres`, 2);
  try {
    await database.pool.query('SELECT 1');
  } catch (error) {
    await database.pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `DATA_DIR ${config.dataDir} is held by a running service (pid ${holder.pid}) that does not answer on ` +
        `${address} (${reason}). Not opening its database files beside it: retry when it answers, or stop it first.`,
      { cause: error },
    );
  }
  return { config, database, close: () => database.pool.end() };
}
