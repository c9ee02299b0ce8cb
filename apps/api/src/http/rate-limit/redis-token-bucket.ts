import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateLimitSetting } from '#common';
import { LocalTokenBucketStore, type BucketDecision, type TokenBucketStore } from './token-bucket.js';

/**
 * Refill and take in one script, on the server's clock, so every api process shares one bucket
 * without a race. The bucket expires once it would be full again (a missing bucket is a full one).
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
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / per_second) + 1000)
return { allowed, tostring(tokens) }
`;

type TakeCommand = (key: string, burst: number, perSecond: number) => Promise<[number, string]>;

const WARN_INTERVAL_MS = 10_000;

/** Buckets in Redis; while Redis is unreachable each process limits on its own buckets instead. */
export class RedisTokenBucketStore implements TokenBucketStore {
  private readonly redis: Redis;
  private readonly fallback = new LocalTokenBucketStore();
  private lastWarning = 0;

  constructor(url: string, private readonly logger: Logger) {
    // Fail fast rather than queue: a request must not wait on the limiter while Redis is down.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', (err) => this.warn(err));
    this.redis.defineCommand('takeRateLimitToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  async take(key: string, setting: RateLimitSetting): Promise<BucketDecision> {
    try {
      const take = (this.redis as unknown as { takeRateLimitToken: TakeCommand }).takeRateLimitToken.bind(this.redis);
      const [allowed, tokens] = await take(key, setting.burst, setting.perSecond);
      return { allowed: allowed === 1, tokens: Number(tokens) };
    } catch (err) {
      this.warn(err);
      return this.fallback.take(key, setting);
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
