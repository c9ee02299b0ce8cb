import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateLimitSetting } from '#common';
import { LocalTokenBucketStore, type BucketDecision, type TokenBucketStore } from './token-bucket.js';

/**
 * Refill and take up to ARGV[3] tokens in one script, on the server's clock, so every api process
 * shares one bucket without a race. Returns how many were granted and what is left. The bucket
 * expires once it would be full again (a missing bucket is a full one).
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * per_second / 1000)
local granted = math.min(math.floor(tokens), tonumber(ARGV[3]))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / per_second) + 1000)
return { granted, tostring(tokens) }
`;

type TakeCommand = (key: string, burst: number, perSecond: number, count: number) => Promise<[number, string]>;

interface PendingTakes {
  setting: RateLimitSetting;
  waiters: ((decision: BucketDecision) => void)[];
}

/** Tokens a process took from the shared bucket ahead of its requests. */
interface Lease {
  tokens: number;
  /** What the shared bucket held after the lease was taken (for the headers). */
  bucketLeft: number;
  expiresAt: number;
}

const WARN_INTERVAL_MS = 10_000;
/** A lease holds at most this much of a bucket's rate, and a tenth of its burst. */
const LEASE_SECONDS = 0.01;
/** Unused leased tokens are dropped after this: a quiet process does not sit on tokens. */
const LEASE_TTL_MS = 1_000;

/** How many tokens beyond the waiting requests a process takes at once (0: limits too small to share out). */
export function leaseSize(setting: RateLimitSetting): number {
  return Math.max(0, Math.min(Math.floor(setting.perSecond * LEASE_SECONDS), Math.floor(setting.burst / 10)));
}

/**
 * Buckets in Redis; while Redis is unreachable each process limits on its own buckets instead.
 * Under load a Redis round trip per request cost more api CPU (and a wake-up of Redis and of the
 * api) than the rest of the rate limiting together, so: requests for one bucket that arrive in the
 * same turn of the event loop share one script call, and that call also leases the next ~10 ms of
 * the bucket's rate to this process, spent locally. The shared limit still holds (leased tokens
 * have left the shared bucket); a lease left unused for a second is dropped, which can under-admit
 * by at most one lease per process per second.
 */
export class RedisTokenBucketStore implements TokenBucketStore {
  private readonly redis: Redis;
  private readonly fallback = new LocalTokenBucketStore();
  private readonly pending = new Map<string, PendingTakes>();
  private readonly leases = new Map<string, Lease>();
  private lastWarning = 0;

  constructor(url: string, private readonly logger: Logger) {
    // Fail fast rather than queue: a request must not wait on the limiter while Redis is down.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', (err) => this.warn(err));
    this.redis.defineCommand('takeRateLimitTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  take(key: string, setting: RateLimitSetting): Promise<BucketDecision> {
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= 1 && performance.now() < lease.expiresAt) {
      lease.tokens -= 1;
      return Promise.resolve({ allowed: true, tokens: lease.bucketLeft + lease.tokens });
    }
    return new Promise((resolve) => {
      const takes = this.pending.get(key);
      if (takes) {
        takes.waiters.push(resolve);
        return;
      }
      this.pending.set(key, { setting, waiters: [resolve] });
      setImmediate(() => void this.flush(key));
    });
  }

  private async flush(key: string): Promise<void> {
    const { setting, waiters } = this.pending.get(key)!;
    this.pending.delete(key);
    try {
      const take = (this.redis as unknown as { takeRateLimitTokens: TakeCommand }).takeRateLimitTokens.bind(this.redis);
      const [granted, leftText] = await take(key, setting.burst, setting.perSecond, waiters.length + leaseSize(setting));
      const left = Number(leftText);
      // The first `granted` callers got a token, the rest of the grant is leased; each caller sees
      // what was left after its own take.
      const leased = Math.max(0, granted - waiters.length);
      if (leased > 0) this.leases.set(key, { tokens: leased, bucketLeft: left, expiresAt: performance.now() + LEASE_TTL_MS });
      else this.leases.delete(key);
      waiters.forEach((resolve, index) =>
        resolve(index < granted ? { allowed: true, tokens: left + granted - index - 1 } : { allowed: false, tokens: left }),
      );
    } catch (err) {
      this.warn(err);
      for (const resolve of waiters) resolve(await this.fallback.take(key, setting));
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private warn(err: unknown): void {
    if (Date.now() - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err }, 'rate limiter: Redis unreachable, limiting per process');
  }
}
