import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import type { Body } from './untyped-json.js';

const ROOT = process.cwd();
export const MAIN = join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');
export const WORKER_MAIN = join(ROOT, 'dist', 'apps', 'worker', 'src', 'main.js');

/** Process tests run the built service, as `npm start` does; build it when missing. */
export function ensureBuilt(): void {
  if (existsSync(MAIN)) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * For a describe block that starts the built service on its embedded defaults: builds it when
 * missing and gives the block a temporary data directory, removed after its tests. Returns a reader
 * of the directory's path (known once the block's setup ran).
 */
export function builtServiceDataDir(prefix: string): () => string {
  let dataDir = '';
  beforeAll(() => {
    ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  return () => dataDir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  waitForExit(timeoutMs?: number): Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `node dist/apps/api/src/main.js` with the given environment (nothing inherited but PATH).
 * `terminal`: on a pseudo-terminal (util-linux `script`), as a person running `npm start` sees it.
 */
export function startService(
  env: Record<string, string>,
  port: number,
  script = MAIN,
  { terminal = false } = {},
): ServiceProcess {
  const [command, args] = terminal
    ? ['script', ['--quiet', '--return', '--command', `exec '${process.execPath}' '${script}'`, '/dev/null']]
    : [process.execPath, [script]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    // `script` ends its session when its input ends: it gets an open pipe.
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForExit = async (timeoutMs = 15_000) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms\n${output}`)), timeoutMs);
    });
    try {
      return await Promise.race([exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    child,
    port,
    output: () => output,
    waitForExit,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return waitForExit();
    },
  };
}

/** Polls GET /health until it answers 200 (or the process dies); the default allows a fresh embedded boot on a loaded machine. */
export async function waitForHealthy(service: ServiceProcess, timeoutMs = 45_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (service.child.exitCode !== null)
      throw new Error(`service exited (${service.child.exitCode}):\n${service.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${service.port}/health`);
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`service not healthy within ${timeoutMs} ms:\n${service.output()}`);
}

/**
 * Waits until the service's output matches `pattern` (its log lines are written a little after they are
 * logged, and the boot's last lines after /health already answers); the match.
 */
export async function waitForOutput(
  service: ServiceProcess,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpExecArray> {
  const started = Date.now();
  for (;;) {
    const match = pattern.exec(service.output());
    if (match) return match;
    if (service.child.exitCode !== null || Date.now() - started > timeoutMs)
      throw new Error(`no ${pattern} in the output (exit ${service.child.exitCode}):\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** JSON over HTTP to a service process with an API key: status and parsed body (undefined when empty). */
export function apiCaller(apiKey: string) {
  return async (method: string, url: string, body?: unknown): Promise<{ status: number; body: Body }> => {
    const res = await fetch(url, {
      method,
      headers: {
        Authorization: `ApiKey ${apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Body };
  };
}
