import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../support/service-process.js';
import { waitFor } from '../../support/wait.js';

/** PostgreSQL refuses to run as root: as root, the cluster belongs to (and runs as) this user. */
const CLUSTER_OWNER = 'postgres';
const run = promisify(execFile);

let binDir: string | undefined;

function binary(name: string): string {
  binDir ??= execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  return join(binDir, name);
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary folder, its own port and socket
 * folder), so a scenario can stop the server itself — `pg_ctl stop -m fast`, what a service manager
 * does: sessions are ended with 57P01, then connections are refused — and start it again on the
 * same port with its data. The shared server other tests use is never touched.
 */
export class PrivatePostgres {
  private constructor(
    private readonly folder: string,
    readonly port: number,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const folder = mkdtempSync(join(tmpdir(), 'private-pg-'));
    const cluster = new PrivatePostgres(folder, await freePort());
    if (process.getuid?.() === 0)
      chownSync(folder, Number(execFileSync('id', ['-u', CLUSTER_OWNER], { encoding: 'utf8' })), 0);
    await cluster.run(binary('initdb'), ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await cluster.resume();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.folder, 'data');
  }

  /** Runs a PostgreSQL tool as the cluster's owner (without blocking the test's event loop). */
  private async run(command: string, args: string[]): Promise<void> {
    const [file, fileArgs] =
      process.getuid?.() === 0 ? ['runuser', ['-u', CLUSTER_OWNER, '--', command, ...args]] : [command, args];
    await run(file, fileArgs, { cwd: this.folder });
  }

  /** Starts the server (again) on its port and waits until it accepts queries. */
  async resume(): Promise<void> {
    const options = `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c max_connections=100`;
    await this.run(binary('pg_ctl'), [
      'start',
      '-D',
      this.dataDir,
      '-l',
      join(this.folder, 'server.log'),
      '-o',
      options,
      '-w',
    ]);
    await waitFor(() => this.accepts(), {
      timeoutMs: 30_000,
      intervalMs: 100,
      description: `PostgreSQL on ${this.port}`,
    });
  }

  /** `pg_ctl stop -m fast`: ends every session, checkpoints, exits. */
  async halt(): Promise<void> {
    await this.run(binary('pg_ctl'), ['stop', '-D', this.dataDir, '-m', 'fast', '-w']);
  }

  private async accepts(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async destroy(): Promise<void> {
    await this.run(binary('pg_ctl'), ['stop', '-D', this.dataDir, '-m', 'immediate', '-w']).catch(() => undefined); // already stopped
    rmSync(this.folder, { recursive: true, force: true });
  }
}
