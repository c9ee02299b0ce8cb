import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PasswordGate } from './password-gate.js';

export interface EmbeddedPostgresOptions {
  /** Directory for the database files (created or restricted to 0700); omitted = in memory (tests). */
  dataDir?: string;
  /** What clients must log in with (SCRAM-SHA-256, any user name); omitted = a random one. */
  password?: string;
  /** A dumped data directory (PGlite dumpDataDir) to start from, so tests skip migrations. */
  loadDataDir?: Blob | File;
  /** Connections the socket multiplexes onto the one PGlite session. */
  maxConnections?: number;
}

/** Extended-query protocol messages that leave a sequence open until the next Sync. */
const IN_SEQUENCE = new Set([
  0x50 /* Parse */, 0x42 /* Bind */, 0x44 /* Describe */, 0x45 /* Execute */, 0x43 /* Close */, 0x48 /* Flush */,
]);

/**
 * pglite-socket runs the protocol messages of all connections one at a time on the single session,
 * and keeps one connection exclusive only while a transaction is open. Two connections' Parse/Bind/
 * Execute/Sync sequences could therefore interleave and clobber each other's unnamed statement
 * ("bind message supplies N parameters", "portal does not exist") under concurrency. Reporting an
 * open sequence as an open transaction makes the queue keep that connection exclusive until its Sync.
 */
function withExtendedQueryAtomicity(pglite: PGlite): PGlite {
  let sequenceOpen = false;
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'isInTransaction') return () => sequenceOpen || target.isInTransaction();
      if (property === 'execProtocolRawStream') {
        return async (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          try {
            return await target.execProtocolRawStream(message, options);
          } finally {
            sequenceOpen = IN_SEQUENCE.has(message[0]);
          }
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function'
        ? (value as (this: PGlite, ...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/**
 * PGlite (real Postgres compiled to WASM) served on a loopback port, so the application talks to it
 * with the same `pg` driver it uses for a real server: one code path for both modes.
 *
 * PGlite's socket server accepts any login, so it listens on a Unix socket in a private temporary
 * directory (0700: no other user can reach it), and the loopback port belongs to a PasswordGate that
 * lets a client through to it only after a SCRAM-SHA-256 login with the password.
 */
export class EmbeddedPostgres {
  private constructor(
    readonly pglite: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly gate: PasswordGate,
    private readonly socketDir: string,
    readonly connectionString: string,
  ) {}

  static async start(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
      chmodSync(options.dataDir, 0o700); // also an existing one, and whatever the umask
    }
    const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    const maxConnections = options.maxConnections ?? 100;
    const socketDir = mkdtempSync(join(tmpdir(), 'pglite-')); // created 0700
    let server: PGLiteSocketServer | undefined;
    try {
      // All socket connections share one session, so the search path must already name BullMQ's schema.
      await pglite.exec('SET search_path TO public, bullmq');
      const socketPath = join(socketDir, '.s.PGSQL.5432');
      server = new PGLiteSocketServer({ db: withExtendedQueryAtomicity(pglite), path: socketPath, maxConnections });
      await server.start();
      const password = options.password ?? randomBytes(32).toString('hex');
      const gate = await PasswordGate.start({
        host: '127.0.0.1',
        port: 0,
        target: socketPath,
        password,
        maxConnections,
      });
      const connectionString = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${gate.port}/postgres`;
      return new EmbeddedPostgres(pglite, server, gate, socketDir, connectionString);
    } catch (error) {
      await server?.stop().catch(() => undefined);
      await pglite.close().catch(() => undefined);
      rmSync(socketDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Where clients connect (127.0.0.1). */
  get host(): string {
    return this.gate.host;
  }

  get port(): number {
    return this.gate.port;
  }

  async stop(): Promise<void> {
    await this.gate.stop();
    await this.server.stop();
    await this.pglite.close();
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}
