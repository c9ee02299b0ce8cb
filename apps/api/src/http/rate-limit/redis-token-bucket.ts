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

/**
 * Puts ARGV[2] tokens taken by a refused bulk back (at most up to the burst). A bucket that expired
 * meanwhile is full already.
 */
const GIVE_BACK_SCRIPT = `
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
if tokens then redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[1]), tokens + tonumber(ARGV[2])))) end
return 1
`;

type GiveBackCommand = (key: string, burst: number, tokens: number) => Promise<number>;
type TakeCommand = (key: string, burst: number, perSecond: number, count: number) => Promise<[number, string]>;

interface PendingTakes {
  setting: RateLimitSetting;
  waiters: { cost: number; resolve: (decision: BucketDecision) => void }[];
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

  constructor(
    url: string,
    private readonly logger: Logger,
  ) {
    // Fail fast rather than queue: a request must not wait on the limiter while Redis is down.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', (err) => this.warn(err));
    this.redis.defineCommand('takeRateLimitTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis.defineCommand('giveBackRateLimitTokens', { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
  }

  take(key: string, setting: RateLimitSetting, cost = 1): Promise<BucketDecision> {
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= cost && performance.now() < lease.expiresAt) {
      lease.tokens -= cost;
      return Promise.resolve({ allowed: true, tokens: lease.bucketLeft + lease.tokens });
    }
    return new Promise((resolve) => {
      const takes = this.pending.get(key);
      if (takes) {
        takes.waiters.push({ cost, resolve });
        return;
      }
      this.pending.set(key, { setting, waiters: [{ cost, resolve }] });
      setImmediate(() => void this.flush(key));
    });
  }

  private async flush(key: string): Promise<void> {
    const { setting, waiters } = this.pending.get(key)!;
    this.pending.delete(key);
    // Tokens still leased to this process join this take (a bulk may cost more than the lease holds):
    // they are this flush's now, so no take() spends them meanwhile.
    const lease = this.leases.get(key);
    const held = lease && performance.now() < lease.expiresAt ? lease.tokens : 0;
    this.leases.delete(key);
    const wanted = waiters.reduce((sum, waiter) => sum + waiter.cost, 0);
    try {
      const take = (this.redis as unknown as { takeRateLimitTokens: TakeCommand }).takeRateLimitTokens.bind(this.redis);
      const [granted, leftText] = await take(
        key,
        setting.burst,
        setting.perSecond,
        Math.max(0, wanted - held) + leaseSize(setting),
      );
      const left = Number(leftText);
      // Callers are served in order while the pool covers their cost (all or nothing each); up to a
      // lease of what remains is leased. Each caller sees what was left after its own take.
      let pool = held + granted;
      const decisions = waiters.map(({ cost }) => {
        if (pool < cost) return { allowed: false, tokens: left + pool };
        pool -= cost;
        return { allowed: true, tokens: left + pool };
      });
      const kept = Math.min(pool, leaseSize(setting));
      if (kept > 0)
        this.leases.set(key, { tokens: kept, bucketLeft: left, expiresAt: performance.now() + LEASE_TTL_MS });
      // More is left only when a bulk was refused (Redis grants what it has): it goes back to the
      // shared bucket rather than sit in this process, so a refused bulk takes nothing from anyone.
      if (pool > kept) await this.giveBack(key, setting, pool - kept);
      waiters.forEach(({ resolve }, index) => resolve(decisions[index]));
    } catch (err) {
      this.warn(err);
      for (const { cost, resolve } of waiters) resolve(await this.fallback.take(key, setting, cost));
    }
  }

  private async giveBack(key: string, setting: RateLimitSetting, tokens: number): Promise<void> {
    try {
      await (this.redis as unknown as { giveBackRateLimitTokens: GiveBackCommand }).giveBackRateLimitTokens(
        key,
        setting.burst,
        tokens,
      );
    } catch (err) {
      this.warn(err); // the tokens come back with the refill
    }
  }

  close(): void {
    this.redis.disconnect();
  }

  private warn(err: unknown): void {
    if (Date.now() - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err }, 'rate limiter: Redis unreachable, limiting per process');
  }
}
