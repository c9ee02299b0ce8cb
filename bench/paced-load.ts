import { Pool } from 'undici';

interface PacedSpec {
  /** http://host:port */
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** Requests per second, sent on a fixed schedule whatever the answers take (an open loop). */
  rate: number;
  /** POST when given (the n-th request's body), GET otherwise. */
  bodyFor?: (n: number) => string;
  /** Headers of the n-th request, added to `headers`. */
  headersFor?: (n: number) => Record<string, string>;
  connections: number;
  /** Requests waiting for an answer beyond which a scheduled one is skipped (counted) instead of queued. */
  maxOutstanding: number;
  /** Requests to schedule in all; without it the load runs until stopped. */
  total?: number;
}

export interface PacedResult {
  rate: number;
  /** Seconds from the first scheduled send to the stop. */
  seconds: number;
  sent: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  /** Scheduled requests not sent because `maxOutstanding` were already waiting: the service fell behind. */
  skipped: number;
  /** 2xx answers per second of the schedule. */
  acceptedPerSecond: number;
  /**
   * From each request's scheduled send time to its answer, so time spent waiting for a free
   * connection while the service is slow counts (no coordinated omission).
   */
  p50Ms?: number;
  p99Ms?: number;
  firstError?: string;
}

interface PacedLoad {
  /** Stops scheduling, waits for the answers still outstanding. */
  stop(): Promise<PacedResult>;
}

function percentile(sorted: number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const TICK_MS = 2;

/** A fixed-rate sender on keep-alive connections (autocannon only runs closed loops). */
export function startPacedLoad(spec: PacedSpec): PacedLoad {
  const pool = new Pool(spec.origin, { connections: spec.connections });
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const result = { sent: 0, ok2xx: 0, non2xx: 0, errors: 0, skipped: 0, firstError: undefined as string | undefined };
  const startedAt = performance.now();
  let scheduled = 0;

  const send = (n: number, intendedAt: number) => {
    result.sent++;
    const request = pool
      .request({
        path: spec.path,
        method: spec.bodyFor ? 'POST' : 'GET',
        headers: spec.headersFor ? { ...spec.headers, ...spec.headersFor(n) } : spec.headers,
        body: spec.bodyFor?.(n),
      })
      .then(async (res) => {
        latencies.push(performance.now() - intendedAt);
        if (res.statusCode >= 200 && res.statusCode < 300) {
          result.ok2xx++;
          await res.body.dump();
          return;
        }
        result.non2xx++;
        const text = await res.body.text();
        result.firstError ??= `${res.statusCode} ${text.slice(0, 500)}`;
      })
      .catch((error: unknown) => {
        result.errors++;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  };

  const timer = setInterval(() => {
    // Request n is due at n / rate seconds: at time t, those numbered up to floor(t * rate) are.
    const due = Math.min(Math.floor(((performance.now() - startedAt) / 1000) * spec.rate) + 1, spec.total ?? Infinity);
    for (; scheduled < due; scheduled++) {
      if (pending.size >= spec.maxOutstanding) result.skipped++;
      else send(scheduled, startedAt + (scheduled * 1000) / spec.rate);
    }
  }, TICK_MS);

  return {
    async stop() {
      clearInterval(timer);
      const seconds = (performance.now() - startedAt) / 1000;
      await Promise.all([...pending]);
      await pool.close();
      const sorted = latencies.sort((a, b) => a - b);
      const round = (value?: number) => (value === undefined ? undefined : Math.round(value));
      return {
        rate: spec.rate,
        seconds,
        ...result,
        acceptedPerSecond: result.ok2xx / seconds,
        p50Ms: round(percentile(sorted, 0.5)),
        p99Ms: round(percentile(sorted, 0.99)),
      };
    },
  };
}
