import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  seconds: number;
  /** Requests per second over all connections; unset = as fast as the answers come. */
  overallRate?: number;
  /** Client-side give-up, in seconds: a request unanswered by then is a timeout. */
  timeoutSeconds?: number;
}

export interface LoadResult {
  seconds: number;
  /** Answers per status code, with their latencies (ms). */
  byStatus: Map<number, number[]>;
  errors: number;
  timeouts: number;
}

/** POSTs the same body over `connections` keep-alive connections, recording every answer's status and latency. */
export async function drive(options: LoadOptions): Promise<LoadResult> {
  const byStatus = new Map<number, number[]>();
  // Without a callback autocannon returns its instance (an event emitter) that is also a promise; the types show only the promise.
  const instance = autocannon({
    url: options.url,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    timeout: options.timeoutSeconds ?? 10,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    let latencies = byStatus.get(status);
    if (!latencies) byStatus.set(status, (latencies = []));
    latencies.push(ms);
  });
  const result = await instance;
  return { seconds: result.duration, byStatus, errors: result.errors, timeouts: result.timeouts };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function answered(result: LoadResult, statuses: (status: number) => boolean): number[] {
  return [...result.byStatus.entries()].filter(([status]) => statuses(status)).flatMap(([, latencies]) => latencies);
}

/** Status counts, p50 and p99 per status, for the report. */
export function describeLoad(result: LoadResult): string {
  const parts = [...result.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([status, ms]) =>
        `${status}: ${ms.length} (p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms)`,
    );
  return `${parts.join('; ')}; errors ${result.errors}, timeouts ${result.timeouts} in ${result.seconds.toFixed(0)} s`;
}
