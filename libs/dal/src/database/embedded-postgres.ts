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
      db: pglite,
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
