import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { generateEncryptionKey, type AppConfig } from '#common';
import { connectDatabase, EmbeddedPostgres, runMigrations, type DatabaseConnection } from '#dal';
import { prepareQueueBackend, type QueueBackend } from '#event-processing';

/** Everything a process needs before Nest starts: the database (migrated), the queue backend. */
export interface Runtime {
  config: AppConfig;
  logger: Logger;
  database: DatabaseConnection;
  databaseUrl: string;
  queueBackend: QueueBackend;
  embedded?: EmbeddedPostgres;
  close(): Promise<void>;
}

/** In embedded mode the credentials key is generated once and kept beside the data. */
function embeddedEncryptionKey(dataDir: string): string {
  const file = join(dataDir, 'encryption.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = generateEncryptionKey();
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

export async function prepareRuntime(config: AppConfig, logger: Logger, embeddedOptions?: { loadDataDir?: Blob }): Promise<Runtime> {
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dataDir = embeddedOptions?.loadDataDir ? undefined : join(config.dataDir, 'pgdata');
    embedded = await EmbeddedPostgres.start({ dataDir, loadDataDir: embeddedOptions?.loadDataDir });
    databaseUrl = embedded.connectionString;
    if (!config.encryptionKey) config.encryptionKey = embeddedEncryptionKey(config.dataDir);
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const database = connectDatabase(databaseUrl, config.databasePoolSize);
  try {
    await runMigrations(database.pool);
    const queueBackend = await prepareQueueBackend(config, databaseUrl);
    return {
      config,
      logger,
      database,
      databaseUrl,
      queueBackend,
      embedded,
      async close() {
        await database.pool.end();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await database.pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}
