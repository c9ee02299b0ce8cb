import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

export type Role = 'api' | 'worker' | 'all';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The whole runtime configuration, parsed and validated once at boot.
 * Nothing else in the codebase reads process.env: inject AppConfig instead.
 */
export class AppConfig {
  /** Real PostgreSQL when set; otherwise the embedded PGlite database in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** BullMQ on Redis when set; otherwise BullMQ's PostgreSQL backend on the same database. */
  redisUrl?: string;
  /** Namespaces BullMQ's Redis keys, so several deployments (or test runs) can share one Redis. */
  queuePrefix: string;
  role: Role;
  port: number;
  host: string;
  /** When set, this key is guaranteed to exist for the Development environment at boot. */
  apiKey?: string;
  logLevel: LogLevel;
  /** 32-byte key (hex or base64) for integration credentials; embedded mode generates one into dataDir. */
  encryptionKey?: string;
  /** Pool size of the pg driver for the application's own queries. */
  databasePoolSize: number;
  /** Body size limits, in bytes. */
  bodyLimit: number;
  triggerBodyLimit: number;
  /** Step jobs processed in parallel by one worker process. */
  workerConcurrency: number;
  /** Of those, the most one environment runs at once (its lane holds as many more; see EnvironmentLanes). */
  workerEnvironmentConcurrency: number;
  /** A worker's /health reports `degraded` once a queue job has waited longer than this (ms) to start. */
  workerDegradedWaitMs: number;
  /** Requests one api process works on at once; beyond it, 503 + Retry-After (load shedding). */
  maxInFlightRequests: number;
  /** Directory of *.json / *.yaml workflow files upserted at boot into the Development environment. */
  workflowsDir?: string;
  /** Allows webhook URLs on loopback/private networks (tests, trusted intranets). */
  allowPrivateWebhookTargets: boolean;
  /** Seconds the recovery sweeper waits before it re-enqueues received events and queued jobs. */
  recoveryGraceSeconds: number;
  /** Enables the test-only failure route used to prove the 500 error shape. */
  enableTestRoutes: boolean;
  metricsEnabled: boolean;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  idempotencyTtlSeconds: number;
  providerMaxAttempts: number;
  providerTimeoutMs: number;
  /** How long a webhook receiver has to answer; a round of one endpoint's deliveries is leased for about twice this. */
  webhookTimeoutMs: number;
  /** Requests to one webhook endpoint a worker has in flight at once. */
  webhookConcurrency: number;
  /** First retry delay of a provider call; doubled per attempt, with jitter. */
  providerBackoffMs: number;
  /** Failures in a row (timeouts, 5xx...) that open an endpoint's circuit in a worker; 0 turns circuits off. */
  providerBreakerFailures: number;
  /** How long an open circuit pauses sends to its endpoint before one trial send. */
  providerBreakerOpenMs: number;
  /** Bounds on every template parse and render (see TemplateEngine). */
  templateLimits: TemplateLimits;
  /** /health reports `degraded` once the event loop has lagged beyond this (ms) in the last few seconds. */
  healthMaxEventLoopLagMs: number;
  /** Times a worker may stop (crash, out of memory, lost lock) while running one step job before the job fails. */
  jobMaxStalls: number;
  /** Per-environment token buckets (see RateLimitGuard); false turns rate limiting off. */
  rateLimitEnabled: boolean;
  rateLimits: Record<RateLimitCategory, RateLimitSetting>;
  /**
   * Browser origins allowed to call `/v1/inbox/*` and open the inbox socket: `'*'` (any) or a list of
   * exact origins. API-key routes never answer CORS.
   */
  inboxAllowedOrigins: '*' | string[];
  /** Token bucket per inbox subscriber session (every `/v1/inbox/*` request takes one token). */
  inboxRateLimit: RateLimitSetting;
  /** Token bucket per environment for the session starts of `POST /v1/inbox/session` that pass the HMAC check. */
  inboxSessionRateLimit: RateLimitSetting;
  /** Token bucket per client address for failed subscriberHash checks; an empty one refuses its sessions. */
  inboxSessionFailureRateLimit: RateLimitSetting;
  /**
   * The proxies whose X-Forwarded-For names the client (Fastify's `trustProxy`): addresses, subnets
   * or proxy-addr's range names; false = the socket's address is the client's.
   */
  trustProxy: false | string[];
  /** How often each api process records its heartbeat and sweeps presence left by dead processes (ms). */
  presenceSweepIntervalMs: number;
  /** An api process silent this long (ms) is dead: the subscribers its sockets set online go offline. */
  presenceStaleAfterMs: number;
  /** The deployment's retention, in days; an environment may override either (see RetentionPass). */
  retention: RetentionDays;
  /** How often the maintenance job runs (retention, expired idempotency keys), in minutes. */
  maintenanceIntervalMinutes: number;
  /** Whether the api serves the operator dashboard's browser app at /dashboard. */
  dashboardEnabled: boolean;
  /** How long a dashboard session lasts from its login, in minutes. */
  dashboardSessionTtlMinutes: number;
  /** Dashboard login attempts allowed per account and per client address (see DASHBOARD_LOGIN_WINDOW_SECONDS). */
  dashboardLoginRateLimits: Record<'account' | 'address', RateLimitSetting>;
}

/** Login attempts refill over this window: a budget of 10 is 10 attempts a quarter hour. */
const DASHBOARD_LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * Days rows are kept. `activity`: trigger events, notifications, jobs and execution details;
 * `messages`: the messages of every channel, the inbox's included. Pending work is kept whatever its age.
 */
export interface RetentionDays {
  activityDays: number;
  messagesDays: number;
}

/** Bounds of every retention setting, deployment-wide or per environment: one day to ten years. */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;

/**
 * Liquid's own limits plus an output cap. `memory` counts what Liquid's filters and ranges allocate
 * (characters of strings, elements of arrays); `renderTimeMs` is checked between template nodes and
 * before every filter call; `sourceChars` bounds a template's length at parse.
 */
export interface TemplateLimits {
  sourceChars: number;
  renderTimeMs: number;
  memory: number;
  outputBytes: number;
}

/** trigger = /v1/events/*, configuration = management writes, global = every other authenticated request. */
export type RateLimitCategory = 'trigger' | 'configuration' | 'global';
/** A bucket of `burst` tokens refilled at `perSecond` tokens a second; one request takes one token. */
export interface RateLimitSetting {
  perSecond: number;
  burst: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const ROLES: Role[] = ['api', 'worker', 'all'];
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function readEnum<T extends string>(env: Env, name: string, allowed: T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

function readEncryptionKey(env: Env): string | undefined {
  const raw = env.ENCRYPTION_KEY;
  if (raw === undefined || raw === '') return undefined;
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
  return bytes.toString('hex');
}

export function parseConfig(env: Env): AppConfig {
  const config = new AppConfig();
  config.databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  config.dataDir = env.DATA_DIR || './.data';
  config.redisUrl = readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']);
  config.queuePrefix = env.QUEUE_PREFIX || 'notifications';
  config.role = readEnum(env, 'ROLE', ROLES, 'all');
  if (config.role !== 'all' && !config.databaseUrl) {
    // The embedded database lives inside one process: a separate api or worker could not share it.
    throw new ConfigError(`ROLE=${config.role} needs DATABASE_URL; the embedded database runs only with ROLE=all`);
  }
  config.port = readInt(env, 'PORT', 3000, 0, 65535);
  config.host = env.HOST || '0.0.0.0';
  config.apiKey = env.API_KEY || undefined;
  if (config.apiKey !== undefined && config.apiKey.length < 16) {
    throw new ConfigError('API_KEY must be at least 16 characters');
  }
  config.logLevel = readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
  config.encryptionKey = readEncryptionKey(env);
  if (config.databaseUrl && !config.encryptionKey) {
    throw new ConfigError('ENCRYPTION_KEY is required when DATABASE_URL is set (64 hex characters)');
  }
  config.databasePoolSize = readInt(env, 'DATABASE_POOL_SIZE', 20, 1, 500);
  config.bodyLimit = readInt(env, 'BODY_LIMIT_BYTES', 100 * 1024, 1024, 100 * 1024 * 1024);
  config.triggerBodyLimit = readInt(env, 'TRIGGER_BODY_LIMIT_BYTES', 512 * 1024, 1024, 100 * 1024 * 1024);
  config.workerConcurrency = readInt(env, 'WORKER_CONCURRENCY', 50, 1, 1000);
  config.workerEnvironmentConcurrency = readInt(
    env,
    'WORKER_ENVIRONMENT_CONCURRENCY',
    Math.max(1, Math.floor(config.workerConcurrency / 2)),
    1,
    config.workerConcurrency,
  );
  config.workerDegradedWaitMs = readInt(env, 'WORKER_DEGRADED_WAIT_MS', 30_000, 100, 24 * 3600 * 1000);
  config.maxInFlightRequests = readInt(env, 'MAX_IN_FLIGHT_REQUESTS', 256, 1, 100_000);
  config.workflowsDir = env.WORKFLOWS_DIR || undefined;
  config.allowPrivateWebhookTargets = readBool(env, 'ALLOW_PRIVATE_WEBHOOK_TARGETS', false);
  config.recoveryGraceSeconds = readInt(env, 'RECOVERY_GRACE_SECONDS', 60, 1, 86400);
  config.enableTestRoutes = readBool(env, 'ENABLE_TEST_ROUTES', false);
  config.metricsEnabled = readBool(env, 'METRICS_ENABLED', true);
  config.metricsToken = env.METRICS_TOKEN || undefined;
  if (config.metricsToken !== undefined && (config.metricsToken.length < 16 || /\s/.test(config.metricsToken))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  config.idempotencyTtlSeconds = readInt(env, 'IDEMPOTENCY_TTL_SECONDS', 24 * 3600, 1, 30 * 24 * 3600);
  config.providerMaxAttempts = readInt(env, 'PROVIDER_MAX_ATTEMPTS', 3, 1, 20);
  config.providerTimeoutMs = readInt(env, 'PROVIDER_TIMEOUT_MS', 10_000, 100, 120_000);
  config.webhookTimeoutMs = readInt(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 1_000, 60_000);
  config.webhookConcurrency = readInt(env, 'WEBHOOK_CONCURRENCY', 64, 1, 256);
  config.providerBackoffMs = readInt(env, 'PROVIDER_BACKOFF_MS', 500, 0, 60_000);
  config.providerBreakerFailures = readInt(env, 'PROVIDER_BREAKER_FAILURES', 5, 0, 1_000);
  config.providerBreakerOpenMs = readInt(env, 'PROVIDER_BREAKER_OPEN_MS', 30_000, 100, 3_600_000);
  config.templateLimits = {
    sourceChars: readInt(env, 'TEMPLATE_SOURCE_LIMIT_CHARS', 256 * 1024, 1_000, 10_000_000),
    renderTimeMs: readInt(env, 'TEMPLATE_RENDER_TIME_LIMIT_MS', 250, 10, 600_000),
    memory: readInt(env, 'TEMPLATE_MEMORY_LIMIT', 10_000_000, 10_000, 1e12),
    outputBytes: readInt(env, 'TEMPLATE_OUTPUT_LIMIT_BYTES', 256 * 1024, 1_000, 100 * 1024 * 1024),
  };
  config.healthMaxEventLoopLagMs = readInt(env, 'HEALTH_MAX_EVENT_LOOP_LAG_MS', 1_000, 10, 600_000);
  config.jobMaxStalls = readInt(env, 'JOB_MAX_STALLS', 3, 1, 100);
  config.rateLimitEnabled = readBool(env, 'RATE_LIMIT_ENABLED', true);
  // Generous defaults: twice the benchmark targets, so only a runaway client is slowed down.
  config.rateLimits = {
    trigger: readRateLimit(env, 'TRIGGER', { perSecond: 10_000, burst: 20_000 }),
    configuration: readRateLimit(env, 'CONFIGURATION', { perSecond: 1_000, burst: 2_000 }),
    global: readRateLimit(env, 'GLOBAL', { perSecond: 5_000, burst: 10_000 }),
  };
  config.inboxAllowedOrigins = readOrigins(env, 'INBOX_ALLOWED_ORIGINS');
  config.inboxRateLimit = readRateLimit(env, 'INBOX', { perSecond: 20, burst: 100 });
  config.inboxSessionRateLimit = readRateLimit(env, 'INBOX_SESSION', { perSecond: 100, burst: 1_000 });
  // A browser with the right hash never fails; a few failures allow for a deploy that changed keys.
  config.inboxSessionFailureRateLimit = readRateLimit(env, 'INBOX_SESSION_FAILURES', { perSecond: 1, burst: 20 });
  config.trustProxy = readTrustProxy(env, 'TRUST_PROXY');
  config.presenceSweepIntervalMs = readInt(env, 'PRESENCE_SWEEP_INTERVAL_MS', 10_000, 100, 3_600_000);
  // Two beats at least: one late heartbeat (a slow query, a GC pause) must not declare a process dead.
  config.presenceStaleAfterMs = readInt(
    env,
    'PRESENCE_STALE_AFTER_MS',
    Math.max(30_000, 2 * config.presenceSweepIntervalMs),
    2 * config.presenceSweepIntervalMs,
    24 * 3_600_000,
  );
  config.retention = {
    activityDays: readInt(env, 'RETENTION_ACTIVITY_DAYS', 30, RETENTION_DAYS_MIN, RETENTION_DAYS_MAX),
    messagesDays: readInt(env, 'RETENTION_MESSAGES_DAYS', 90, RETENTION_DAYS_MIN, RETENTION_DAYS_MAX),
  };
  config.maintenanceIntervalMinutes = readInt(env, 'MAINTENANCE_INTERVAL_MINUTES', 60, 1, 24 * 60);
  config.dashboardEnabled = readBool(env, 'DASHBOARD_ENABLED', true);
  config.dashboardSessionTtlMinutes = readInt(env, 'DASHBOARD_SESSION_TTL_MINUTES', 12 * 60, 5, 30 * 24 * 60);
  // An account's budget stops password guessing; an address's is larger, for a team behind one NAT.
  config.dashboardLoginRateLimits = {
    account: readLoginAttempts(env, 'DASHBOARD_LOGIN_ATTEMPTS_PER_ACCOUNT', 10),
    address: readLoginAttempts(env, 'DASHBOARD_LOGIN_ATTEMPTS_PER_ADDRESS', 50),
  };
  return config;
}

/** `*`, or a comma-separated list of origins such as `https://app.example.com` (scheme, host, port). */
function readOrigins(env: Env, name: string): '*' | string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === '*') return '*';
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError(`${name} must list origins like https://app.example.com, got "${origin}"`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError(`${name} must list origins like https://app.example.com, got "${origin}"`);
    }
    return url.origin;
  });
}

/** The names proxy-addr (Fastify's `trustProxy`) accepts for the reserved ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry) || isIP(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const maxBits = isIP(address) === 4 ? 32 : isIP(address) === 6 ? 128 : 0;
  return extra === undefined && maxBits > 0 && /^\d+$/.test(bits ?? '') && Number(bits) <= maxBits;
}

/**
 * Unset: the socket's address is the client's. Else a comma-separated list of the proxies' addresses
 * and subnets: a request from one of them is from the address its X-Forwarded-For names.
 */
function readTrustProxy(env: Env, name: string): false | string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  // Both would believe an X-Forwarded-For written by a client that reaches the service directly
  // (Fastify refuses hop counts for that reason, trusting no proxy at all).
  if (raw === 'true' || /^\d+$/.test(raw)) {
    throw new ConfigError(
      `${name} takes the proxies' addresses or subnets (10.0.0.0/8, loopback), not "${raw}": it would let a client that connects directly choose its address`,
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const invalid = entries.find((entry) => !isProxyAddress(entry));
  if (invalid !== undefined) {
    throw new ConfigError(
      `${name} must be a comma-separated list of proxy addresses or subnets (10.0.0.0/8, loopback), got "${invalid}"`,
    );
  }
  return entries;
}

function readRateLimit(env: Env, category: string, fallback: RateLimitSetting): RateLimitSetting {
  return {
    perSecond: readInt(env, `RATE_LIMIT_${category}_PER_SECOND`, fallback.perSecond, 1, 1_000_000),
    burst: readInt(env, `RATE_LIMIT_${category}_BURST`, fallback.burst, 1, 10_000_000),
  };
}

/** A number of attempts per DASHBOARD_LOGIN_WINDOW_SECONDS, as a bucket refilled evenly over the window. */
function readLoginAttempts(env: Env, name: string, fallback: number): RateLimitSetting {
  const burst = readInt(env, name, fallback, 1, 100_000);
  return { burst, perSecond: burst / DASHBOARD_LOGIN_WINDOW_SECONDS };
}

/** Reads the process environment: the only place that touches process.env. */
export function loadConfig(overrides: Env = {}): AppConfig {
  return parseConfig({ ...process.env, ...overrides });
}

export function generateEncryptionKey(): string {
  return randomBytes(32).toString('hex');
}
