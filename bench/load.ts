import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  statusCodes: Record<string, number>;
  /** The body of the first non-2xx answer, to tell what failed. */
  firstError?: string;
  /** Each measurement when there were several (the figures above are their medians and sums). */
  runs?: Pick<LoadResult, 'requestsPerSecond' | 'p50Ms' | 'p99Ms'>[];
}

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds; or a fixed number of requests with `amount`. */
  duration?: number;
  amount?: number;
  /** Builds the body of the n-th request (0-based) when each request differs. */
  bodyFor?: (n: number) => string;
  /** Headers of the n-th request added to `headers` (e.g. another subscriber's session token). */
  headersFor?: (n: number) => Record<string, string>;
  /**
   * Seconds of the same load run first and not recorded: the first second after a route's first
   * use (JIT, PostgreSQL's plan and buffer caches) is not the steady state the p99 describes.
   */
  warmUpSeconds?: number;
  /** Measurements after the warm-up (default 1): rates and latencies are their medians, counts their sums. */
  runs?: number;
}

/** Autocannon runs against 127.0.0.1 (after the warm-up); requests/s counts 2xx answers only (a rejected request was not served). */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmUpSeconds) await measure({ ...spec, duration: spec.warmUpSeconds, amount: undefined });
  const runs: LoadResult[] = [];
  for (let i = 0; i < (spec.runs ?? 1); i++) runs.push(await measure(spec));
  return runs.length === 1 ? runs[0] : combine(runs);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function combine(runs: LoadResult[]): LoadResult {
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const statusCodes: Record<string, number> = {};
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const firstError = runs.find((run) => run.firstError)?.firstError;
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    requests: sum((run) => run.requests),
    ok2xx: sum((run) => run.ok2xx),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    seconds: sum((run) => run.seconds),
    statusCodes,
    ...(firstError ? { firstError } : {}),
    runs: runs.map(({ requestsPerSecond, p50Ms, p99Ms }) => ({ requestsPerSecond, p50Ms, p99Ms })),
  };
}

async function measure(spec: LoadSpec): Promise<LoadResult> {
  let sent = 0;
  let firstError: string | undefined;
  const request: autocannon.Request = {
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    onResponse: (status, body) => {
      if ((status < 200 || status > 299) && firstError === undefined) firstError = `${status} ${body.slice(0, 500)}`;
    },
  };
  const { bodyFor, headersFor } = spec;
  if (bodyFor || headersFor)
    request.setupRequest = (req) => {
      const n = sent++;
      return {
        ...req,
        ...(bodyFor ? { body: bodyFor(n) } : {}),
        ...(headersFor ? { headers: { ...req.headers, ...headersFor(n) } } : {}),
      };
    };
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.duration ?? 10 }),
    timeout: 30,
    requests: [request],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  const answered = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.duration > 0 ? result['2xx'] / result.duration : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: answered,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    statusCodes,
    ...(firstError ? { firstError } : {}),
  };
}
