import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgresOptions {
  /** Directory for the database files; omitted = in memory (tests). */
  dataDir?: string;
  /** A dumped data directory (PGlite dumpDataDir) to start from, so tests skip migrations. */
  loadDataDir?: Blob | File;
  /** Connections the socket multiplexes onto the one PGlite session. */
  maxConnections?: number;
}

/** Extended-query protocol messages that leave a sequence open until the next Sync. */
const IN_SEQUENCE = new Set([0x50 /* Parse */, 0x42 /* Bind */, 0x44 /* Describe */, 0x45 /* Execute */, 0x43 /* Close */, 0x48 /* Flush */]);

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
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * PGlite (real Postgres compiled to WASM) served on a loopback port, so the application talks to it
 * with the same `pg` driver it uses for a real server: one code path for both modes.
 */
export class EmbeddedPostgres {
  private constructor(
    readonly pglite: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly connectionString: string,
  ) {}

  static async start(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    // All socket connections share one session, so the search path must already name BullMQ's schema.
    await pglite.exec('SET search_path TO public, bullmq');
    const server = new PGLiteSocketServer({
      db: withExtendedQueryAtomicity(pglite),
      host: '127.0.0.1',
      port: 0,
      maxConnections: options.maxConnections ?? 100,
    });
    let port = 0;
    server.addEventListener('listening', (event) => {
      port = (event as CustomEvent<{ port: number }>).detail.port;
    });
    await server.start();
    return new EmbeddedPostgres(pglite, server, `postgres://postgres@127.0.0.1:${port}/postgres`);
  }

  async dump(): Promise<File | Blob> {
    return this.pglite.dumpDataDir('none');
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.pglite.close();
  }
}
