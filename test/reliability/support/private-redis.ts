import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../support/service-process.js';
import { waitFor } from '../../support/wait.js';

/**
 * A redis-server of the test's own, without persistence (`--save '' --appendonly no`): killing it
 * loses every queue entry, and starting it again on the same port gives the service an empty Redis
 * at the address it knows. The shared Redis other tests use is never touched.
 */
export class PrivateRedis {
  private child?: ChildProcess;
  private output = '';

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.launch();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    child.stdout?.on('data', (chunk) => (this.output += chunk));
    child.stderr?.on('data', (chunk) => (this.output += chunk));
    await waitFor(() => this.ping(), {
      timeoutMs: 10_000,
      intervalMs: 50,
      description: `redis-server on ${this.port}`,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${this.output}`);
    });
  }

  private async ping(): Promise<boolean> {
    if (this.child?.exitCode !== null) throw new Error(`redis-server exited (${this.child?.exitCode})\n${this.output}`);
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  /** Number of keys, and whether a marker set before a restart survived it (it must not). */
  async inspect(marker?: 'set'): Promise<{ keys: number; marker: boolean }> {
    const client = new Redis(this.url, { maxRetriesPerRequest: 1 });
    try {
      if (marker) await client.set('private-redis:marker', '1');
      return { keys: await client.dbsize(), marker: (await client.exists('private-redis:marker')) === 1 };
    } finally {
      client.disconnect();
    }
  }

  /** kill -9: no chance to save anything (and nothing would be saved anyway). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts again, empty, on the same port. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.kill();
  }
}
