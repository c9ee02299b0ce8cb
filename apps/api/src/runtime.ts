import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { generateEncryptionKey, type AppConfig } from '#common';
import { connectDatabase, EmbeddedPostgres, runMigrations, type DatabaseConnection } from '#dal';
import { prepareQueueBackend, type QueueBackend } from '#event-processing/producer';
import { DataDirClaim, RUNNING_SERVICE_FILE } from './data-dir-claim.js';

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

/** What the service keeps in DATA_DIR: a folder holding only these is one it made. */
const DATA_DIR_ENTRIES = new Set(['pgdata', 'encryption.key', 'database.password', RUNNING_SERVICE_FILE]);

/**
 * DATA_DIR holds the database files and the keys to them, so only the service's user may enter it:
 * created 0700, and one the service made earlier (older versions left it 0755) is restricted. A
 * folder holding other things is not changed; its files of ours are private anyway (0600 / 0700).
 */
function preparePrivateDataDir(dataDir: string, logger: Logger): void {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700); // whatever the umask
    return;
  }
  const { mode, uid } = statSync(dataDir);
  if ((mode & 0o077) === 0) return;
  const ours = readdirSync(dataDir).every((entry) => DATA_DIR_ENTRIES.has(entry));
  if (ours && uid === process.getuid?.()) {
    chmodSync(dataDir, 0o700);
    logger.warn({ dataDir, mode: (mode & 0o777).toString(8) }, 'DATA_DIR was open to other users; restricted to 0700');
  } else {
    logger.warn(
      { dataDir, mode: (mode & 0o777).toString(8) },
      'DATA_DIR is open to other users and holds other files: left as is (the database files, key and password in it are private)',
    );
  }
}

/** A secret generated once into DATA_DIR (0600) and read from there on every later boot. */
function dataDirSecret(dataDir: string, name: string, generate: () => string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  }
  const secret = generate();
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export async function prepareRuntime(
  config: AppConfig,
  logger: Logger,
  embeddedOptions?: { loadDataDir?: Blob },
): Promise<Runtime> {
  let embedded: EmbeddedPostgres | undefined;
  let claim: DataDirClaim | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const inMemory = Boolean(embeddedOptions?.loadDataDir);
    if (!inMemory || !config.encryptionKey) preparePrivateDataDir(config.dataDir, logger);
    if (inMemory) {
      // Tests: an in-memory copy of a template, with a random password.
      embedded = await EmbeddedPostgres.start({ loadDataDir: embeddedOptions!.loadDataDir });
    } else {
      // The embedded database's login (docs/security.md): generated on first boot, kept for operators' tools.
      const password = dataDirSecret(config.dataDir, 'database.password', () => randomBytes(32).toString('hex'));
      claim = DataDirClaim.take(config.dataDir);
      embedded = await EmbeddedPostgres.start({ dataDir: join(config.dataDir, 'pgdata'), password }).catch(
        (error: unknown) => {
          claim?.release();
          throw error;
        },
      );
    }
    if (!config.encryptionKey)
      config.encryptionKey = dataDirSecret(config.dataDir, 'encryption.key', generateEncryptionKey);
    databaseUrl = embedded.connectionString;
    logger.info(
      { dataDir: config.dataDir, host: embedded.host, port: embedded.port },
      'embedded PostgreSQL (PGlite) started',
    );
  }
  const database = connectDatabase(databaseUrl, config.databasePoolSize);
  try {
    await runMigrations(database.pool);
    const queueBackend = await prepareQueueBackend(config, databaseUrl);
    // Published only now, so a CLI never works on a database still being migrated.
    if (claim && embedded) claim.publish(embedded.port);
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
        claim?.release();
      },
    };
  } catch (error) {
    await database.pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    claim?.release();
    throw error;
  }
}
