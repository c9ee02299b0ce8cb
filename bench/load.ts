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
  /**
   * Seconds of the same load run first and not recorded: the first second after a route's first
   * use (JIT, PostgreSQL's plan and buffer caches) is not the steady state the p99 describes.
   */
  warmUpSeconds?: number;
}

/** One autocannon run against 127.0.0.1 (after its warm-up); requests/s counts every answered request. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmUpSeconds) await measure({ ...spec, duration: spec.warmUpSeconds, amount: undefined });
  return measure(spec);
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
  if (spec.bodyFor) request.setupRequest = (req) => ({ ...req, body: spec.bodyFor!(sent++) });
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
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  const answered = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.duration > 0 ? answered / result.duration : 0,
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
