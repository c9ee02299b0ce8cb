import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = process.cwd();
const OUTPUT_TAIL_CHARS = 20_000;
const STOP_GRACE_MS = 15_000;

/** Every child this run started; killed on any way out of the process. */
const children = new Set<ChildProcess>();

export function killAllOnExit(): void {
  const killAll = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
      killAll();
      process.exit(130);
    });
  }
}

/** A child started elsewhere (a forked load generator), killed with the others on the way out. */
export function adoptChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
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

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  port: number;
  /** The last part of stdout+stderr, for failure reports. */
  output(): string;
  /** Lines the process logged (info and above, the default level). */
  loggedLines(): number;
  stop(): Promise<void>;
}

export function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): RunningProcess {
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let tail = '';
  let lines = 0;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    lines += text.split('\n').filter((line) => line.trim() !== '').length;
    tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    port,
    output: () => tail,
    loggedLines: () => lines,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      children.delete(child);
    },
  };
}

/** Polls the URL until it answers 200; fails early if the process dies. */
export async function waitForHttp(proc: RunningProcess, path: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.name} exited (${proc.child.exitCode}):\n${proc.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${proc.port}${path}`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${proc.name} not ready within ${timeoutMs} ms:\n${proc.output()}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statusField(pid: number, field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Peak resident memory of a process. `resetPeak` asks the kernel to restart the high-water mark
 * (clear_refs 5), so the next read covers only what ran since; `reset` says whether that worked.
 */
export const memory = {
  peakBytes: (proc: RunningProcess) => (proc.child.pid ? statusField(proc.child.pid, 'VmHWM') : undefined),
  resetPeak(proc: RunningProcess): boolean {
    if (!proc.child.pid) return false;
    try {
      writeFileSync(`/proc/${proc.child.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  },
};
