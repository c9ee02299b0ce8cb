/**
 * Benchmark settings: environment variables BENCH_*, or flags `--name=value` meaning BENCH_NAME
 * (`--topic-size=2000` is BENCH_TOPIC_SIZE=2000; a bare `--quick` is BENCH_QUICK=1).
 */
export interface BenchOptions {
  quick: boolean;
  /**
   * Which parts run: sustained, ceilings, accept, fanout, singles, feed, inbox, noisy, webhooks, translations,
   * lifecycle (feed, inbox, noisy, webhooks, translations and the sustained part's feed measurement on the Redis deployment only;
   * lifecycle on a Redis deployment of its own, keeping 60 days).
   */
  parts: Set<string>;
  /** Queue backends deployed in turn: redis, postgres. */
  backends: Set<string>;
  adminUrl: string;
  redisUrl: string;
  database: string;
  /** Seconds of each sustained end-to-end load (triggers sent with the worker consuming). */
  sustainedDuration: number;
  soakDuration: number;
  /** Triggers/s sent end to end while the feed is measured under load. */
  feedLoadRate: number;
  /** Seconds of each trigger-accept load (single and bulk). */
  duration: number;
  /** Seconds of unrecorded load before each accept and feed measurement. */
  warmUp: number;
  /** Measurements of each accept and feed load; the median is reported (machine noise here is ±15 % and more). */
  loadRuns: number;
  connections: number;
  bulkSize: number;
  subscribers: number;
  topicSize: number;
  singles: number;
  singlesConnections: number;
  feedRows: number;
  feedDuration: number;
  feedConnections: number;
  /** Notifications the lifecycle part seeds over its 60 days (each with 4 more rows). */
  lifecycleRows: number;
  /** Upper bound, in seconds, on any wait for deliveries. */
  deliveryTimeout: number;
  /** A wait for deliveries also ends after this many seconds without progress. */
  stallTimeout: number;
  /** Inbox sockets held open on the api, each with its own subscriber's session. */
  inboxSockets: number;
  /** Connected subscribers in the topic one trigger is sent to. */
  inboxTopicSize: number;
  /** Measured topic triggers (the table shows the medians). */
  inboxRounds: number;
  /** Load-generator processes holding the sockets. */
  inboxClientProcesses: number;
  /** Topic triggers sent before the list load, so each listed subscriber has a page of notifications. */
  inboxListBackfill: number;
  /** Seconds of each of the quiet environment's paced in_app loads in the noisy-neighbour part. */
  noisyDuration: number;
  ceilingJobs: number;
  ceilingRows: number;
  cpuProf: boolean;
  /** Extra service environment from BENCH_SERVICE_<NAME>=value (e.g. BENCH_SERVICE_WORKER_CONCURRENCY). */
  serviceEnv: Record<string, string>;
}

const PARTS = [
  'sustained',
  'short',
  'soak',
  'ceilings',
  'accept',
  'fanout',
  'singles',
  'feed',
  'inbox',
  'noisy',
  'webhooks',
  'translations',
  'lifecycle',
  'cost',
  'dashboard',
];
const BACKENDS = ['redis', 'postgres'];

function readSet(raw: string | undefined, known: string[], name: string): Set<string> {
  const values = new Set(
    (raw ?? known.join(','))
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean),
  );
  for (const value of values)
    if (!known.includes(value)) throw new Error(`${name}: unknown value "${value}" (known: ${known.join(', ')})`);
  return values;
}

function readSettings(argv: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('BENCH_') && value !== undefined) settings[key] = value;
  }
  for (const arg of argv) {
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/i.exec(arg);
    if (!match) throw new Error(`unknown argument "${arg}" (expected --name=value)`);
    settings[`BENCH_${match[1].toUpperCase().replace(/-/g, '_')}`] = match[2] ?? '1';
  }
  return settings;
}

function loopbackUrl(raw: string, name: string): string {
  const host = new URL(raw).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host))
    throw new Error(`${name} must point at this machine (127.0.0.1), got ${host}`);
  return raw;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const s = readSettings(argv, env);
  const quick = ['1', 'true', 'yes'].includes((s.BENCH_QUICK ?? '').toLowerCase());
  const int = (name: string, full: number, small: number, min = 1): number => {
    const raw = s[`BENCH_${name}`];
    if (raw === undefined || raw === '') return quick ? small : full;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`BENCH_${name} must be an integer >= ${min}, got "${raw}"`);
    return value;
  };

  const topicSize = int('TOPIC_SIZE', 100_000, 2_000);
  const singles = int('SINGLES', 10_000, 500);
  const inboxSockets = int('INBOX_SOCKETS', 10_000, 500);
  const serviceEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key.startsWith('BENCH_SERVICE_')) serviceEnv[key.slice('BENCH_SERVICE_'.length)] = value;
  }
  return {
    quick,
    parts: readSet(s.BENCH_PARTS, PARTS, 'BENCH_PARTS'),
    backends: readSet(s.BENCH_BACKENDS, BACKENDS, 'BENCH_BACKENDS'),
    adminUrl: loopbackUrl(s.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'BENCH_ADMIN_URL'),
    redisUrl: loopbackUrl(s.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', 'BENCH_REDIS_URL'),
    database: s.BENCH_DATABASE ?? 'ns_bench',
    sustainedDuration: int('SUSTAINED_DURATION', 30, 5),
    soakDuration: int('SOAK_DURATION', 300, 20),
    feedLoadRate: int('FEED_LOAD_RATE', 1_000, 1_000),
    duration: int('DURATION', 20, 3),
    warmUp: int('WARM_UP', 2, 1, 0),
    loadRuns: int('LOAD_RUNS', 3, 1),
    connections: int('CONNECTIONS', 50, 20),
    bulkSize: int('BULK_SIZE', 100, 100),
    topicSize,
    singles,
    subscribers: Math.max(int('SUBSCRIBERS', 100_000, 2_000), topicSize, singles, inboxSockets),
    singlesConnections: int('SINGLES_CONNECTIONS', 50, 20),
    feedRows: int('FEED_ROWS', 1_000_000, 20_000),
    feedDuration: int('FEED_DURATION', 10, 2),
    feedConnections: int('FEED_CONNECTIONS', 10, 10),
    lifecycleRows: int('LIFECYCLE_ROWS', 10_000_000, 120_000),
    deliveryTimeout: int('DELIVERY_TIMEOUT', 600, 120),
    stallTimeout: int('STALL_TIMEOUT', 60, 30),
    inboxSockets,
    inboxTopicSize: Math.min(int('INBOX_TOPIC_SIZE', 1_000, 100), inboxSockets),
    inboxRounds: int('INBOX_ROUNDS', 5, 2),
    inboxClientProcesses: int('INBOX_CLIENT_PROCESSES', 4, 2),
    inboxListBackfill: int('INBOX_LIST_BACKFILL', 20, 5, 0),
    noisyDuration: int('NOISY_DURATION', 15, 5),
    ceilingJobs: int('CEILING_JOBS', 100_000, 5_000),
    ceilingRows: int('CEILING_ROWS', 200_000, 20_000),
    cpuProf: ['1', 'true', 'yes'].includes((s.BENCH_CPU_PROF ?? '').toLowerCase()),
    serviceEnv,
  };
}
