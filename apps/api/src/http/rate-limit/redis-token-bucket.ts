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

const WARN_INTERVAL_MS = 10_000;

/**
 * Buckets in Redis; while Redis is unreachable each process limits on its own buckets instead.
 * Requests for one bucket that arrive in the same turn of the event loop share one script call
 * taking that many tokens: under load a Redis round trip per request cost more api CPU than the
 * rest of the rate limiting together.
 */
export class RedisTokenBucketStore implements TokenBucketStore {
  private readonly redis: Redis;
  private readonly fallback = new LocalTokenBucketStore();
  private readonly pending = new Map<string, PendingTakes>();
  private lastWarning = 0;

  constructor(url: string, private readonly logger: Logger) {
    // Fail fast rather than queue: a request must not wait on the limiter while Redis is down.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', (err) => this.warn(err));
    this.redis.defineCommand('takeRateLimitTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  take(key: string, setting: RateLimitSetting): Promise<BucketDecision> {
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
      const [granted, left] = await take(key, setting.burst, setting.perSecond, waiters.length);
      // The first `granted` callers got a token; each sees what was left after its own take.
      waiters.forEach((resolve, index) =>
        resolve(index < granted ? { allowed: true, tokens: Number(left) + granted - index - 1 } : { allowed: false, tokens: Number(left) }),
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
