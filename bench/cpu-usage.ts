import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The processes that share the machine during a scenario; `other` is whatever else ran. */
const CPU_GROUPS = ['api', 'worker', 'postgres', 'redis', 'bench', 'receiver', 'other'] as const;
type CpuGroup = (typeof CPU_GROUPS)[number];

export interface CpuUsage {
  /** Wall-clock seconds of the window. */
  seconds: number;
  cores: number;
  /** Share of all cores busy over the window (1 = every core all the time). */
  busy: number;
  /** CPU seconds per group over the window. */
  byGroup: Record<CpuGroup, number>;
}

/** Kernel clock ticks per second for /proc times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** utime + stime of a process, plus its waited-for children's (a server's exited backends). */
function processTicks(pid: number, withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command may hold spaces or parentheses: the fields start after its closing one.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = fields[11] + fields[12];
    return withChildren ? own + fields[13] + fields[14] : own;
  } catch {
    return 0;
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The command name the webhooks part's receiver process gives itself. */
export const RECEIVER_COMMAND = 'bench-receiver';

/** CPU ticks per group now: PostgreSQL, Redis and the webhook receiver by command name, the services and the bench by pid. */
function groupTicks(pids: { api?: number; worker?: number }): Record<CpuGroup, number> {
  const ticks = Object.fromEntries(CPU_GROUPS.map((group) => [group, 0])) as Record<CpuGroup, number>;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const command = commandOf(pid);
    if (command === 'postgres') ticks.postgres += processTicks(pid, true);
    else if (command === 'redis-server') ticks.redis += processTicks(pid, false);
    else if (command === RECEIVER_COMMAND) ticks.receiver += processTicks(pid, false);
  }
  if (pids.api) ticks.api = processTicks(pids.api, false);
  if (pids.worker) ticks.worker = processTicks(pids.worker, false);
  ticks.bench = processTicks(process.pid, false);
  return ticks;
}

/**
 * Starts measuring where the machine's CPU goes; `stop` answers the window's usage. Read from /proc
 * (Linux only): the machine's busy time, and each group's user + system time. What the groups do
 * not account for (other processes, a PostgreSQL backend that exited without being waited for) is `other`.
 */
export function startCpuWindow(pids: { api?: number; worker?: number }): { stop(): CpuUsage } {
  const startedAt = performance.now();
  const machineBefore = machineTicks();
  const before = groupTicks(pids);
  return {
    stop() {
      const seconds = (performance.now() - startedAt) / 1000;
      const machineAfter = machineTicks();
      const after = groupTicks(pids);
      const byGroup = Object.fromEntries(
        CPU_GROUPS.map((group) => [group, Math.max(0, after[group] - before[group]) / TICKS_PER_SECOND]),
      ) as Record<CpuGroup, number>;
      const busySeconds = (machineAfter.busy - machineBefore.busy) / TICKS_PER_SECOND;
      const accounted = CPU_GROUPS.reduce((sum, group) => sum + byGroup[group], 0);
      byGroup.other = Math.max(0, busySeconds - accounted);
      const cores = cpus().length;
      const totalSeconds = (machineAfter.total - machineBefore.total) / TICKS_PER_SECOND;
      return { seconds, cores, busy: totalSeconds > 0 ? busySeconds / totalSeconds : 0, byGroup };
    },
  };
}

/** Several windows as one: their seconds and each group's CPU added up, the busy share weighted by length. */
export function sumCpu(windows: CpuUsage[]): CpuUsage | undefined {
  if (windows.length === 0) return undefined;
  const seconds = windows.reduce((sum, w) => sum + w.seconds, 0);
  const byGroup = Object.fromEntries(
    CPU_GROUPS.map((group) => [group, windows.reduce((sum, w) => sum + w.byGroup[group], 0)]),
  ) as Record<CpuGroup, number>;
  const busy = seconds > 0 ? windows.reduce((sum, w) => sum + w.busy * w.seconds, 0) / seconds : 0;
  return { seconds, cores: windows[0].cores, busy, byGroup };
}

const GROUP_LABELS: Record<CpuGroup, string> = {
  api: 'api',
  worker: 'worker',
  postgres: 'PostgreSQL',
  redis: 'Redis',
  bench: 'load generator',
  receiver: 'webhook receiver',
  other: 'other',
};

/**
 * Each group's share of the machine (all cores over the window), and with `units` (triggers,
 * deliveries) its CPU milliseconds per unit: "api 41 % (0.40 ms), worker 28 % (0.27 ms), …".
 */
export function cpuBreakdown(usage: CpuUsage, units?: number): string {
  const capacity = usage.seconds * usage.cores;
  // The receiver runs only in the webhooks part.
  return CPU_GROUPS.filter((group) => group !== 'receiver' || usage.byGroup.receiver > 0)
    .map((group) => {
      const seconds = usage.byGroup[group];
      const share = `${GROUP_LABELS[group]} ${((seconds / capacity) * 100).toFixed(0)} %`;
      return units ? `${share} (${((seconds * 1000) / units).toFixed(2)} ms)` : share;
    })
    .join(', ');
}
