import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/**
 * Starts a service process whose stdout and stderr go to a file, as a container runtime takes a
 * service's logs: through a pipe, they would be read on the bench's own event loop, busy sending the
 * load, and a full pipe would block the service's synchronous log writes, a stall no deployment has.
 * The file is removed when the bench process exits.
 */
export function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): RunningProcess {
  const logPath = join(tmpdir(), `notification-bench-${process.pid}-${port}.log`);
  const logFd = openSync(logPath, 'w');
  process.once('exit', () => rmSync(logPath, { force: true }));
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    port,
    output: () => logTail(logPath),
    loggedLines: () => countLines(logPath),
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

/** The last OUTPUT_TAIL_CHARS bytes of a log file. */
function logTail(path: string): string {
  const size = statSync(path).size;
  const length = Math.min(size, OUTPUT_TAIL_CHARS);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  return buffer.toString();
}

/** Lines in a log file (each log entry is one). */
function countLines(path: string): number {
  const bytes = readFileSync(path);
  let lines = 0;
  for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) lines++;
  return lines;
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
