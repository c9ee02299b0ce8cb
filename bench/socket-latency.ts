import { randomUUID } from 'node:crypto';
import { sumCpu, type CpuUsage } from './cpu-usage.js';
import { sleep } from './processes.js';
import type { FleetRound, SocketFleet } from './socket-fleet.js';

/** Longer than any plausible delivery: a round that takes this long is reported incomplete. */
const ROUND_TIMEOUT_MS = 30_000;

export interface LatencyRound {
  received: number;
  expected: number;
  complete: boolean;
  /** From the trigger's 201 (as its sender saw it) to each socket's event. */
  p50Ms?: number;
  p99Ms?: number;
  lastMs?: number;
  duplicates: number;
  wrongRecipients: number;
  disconnects: number;
  /** Where the machine's CPU went from the send to the last arrival. */
  cpu?: CpuUsage;
}

export interface SocketLatency {
  topicSize: number;
  rounds: LatencyRound[];
  /** Medians over the rounds. */
  p50Ms?: number;
  p99Ms?: number;
  lastMs?: number;
  /** The rounds' CPU windows added up. */
  cpu?: CpuUsage;
}

const now = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  return known.length === 0 ? undefined : known[Math.floor((known.length - 1) / 2)];
}

function toRound(round: FleetRound & { complete: boolean }, acceptedAt: number): LatencyRound {
  const latencies = round.arrivals.map((at) => at - acceptedAt).sort((a, b) => a - b);
  const ms = (value?: number) => (value === undefined ? undefined : Math.round(value * 10) / 10);
  return {
    received: latencies.length,
    expected: round.expected,
    complete: round.complete,
    p50Ms: ms(percentile(latencies, 50)),
    p99Ms: ms(percentile(latencies, 99)),
    lastMs: ms(latencies.at(-1)),
    duplicates: round.duplicates,
    wrongRecipients: round.wrongRecipients,
    disconnects: round.disconnects,
  };
}

export function summarize(topicSize: number, rounds: LatencyRound[]): SocketLatency {
  return {
    topicSize,
    rounds,
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    lastMs: median(rounds.map((r) => r.lastMs)),
    cpu: sumCpu(rounds.flatMap((r) => (r.cpu ? [r.cpu] : []))),
  };
}

/**
 * One notification to the first `topicSize` sockets per round: `send` answers when its 201 came
 * back; arrivals are timed from then. The first round is a warm-up and is not recorded. With
 * `cpuWindow`, each round also records where the machine's CPU went from the send to its last arrival.
 */
export async function measureRounds(
  fleet: SocketFleet,
  rounds: number,
  topicSize: number,
  send: (transactionId: string) => Promise<void>,
  cpuWindow?: () => { stop(): CpuUsage },
): Promise<LatencyRound[]> {
  const recorded: LatencyRound[] = [];
  for (let round = 0; round <= rounds; round++) {
    const transactionId = `bench-inbox-${randomUUID()}`;
    fleet.watch(transactionId, topicSize, ROUND_TIMEOUT_MS);
    const cpu = cpuWindow?.();
    await send(transactionId);
    const acceptedAt = now();
    const result = { ...toRound(await fleet.collect(), acceptedAt), cpu: cpu?.stop() };
    if (round === 0 && result.received === 0)
      throw new Error(`warm-up: no socket received notification_received within ${ROUND_TIMEOUT_MS} ms`);
    if (round > 0) recorded.push(result);
    await sleep(500);
  }
  return recorded;
}
