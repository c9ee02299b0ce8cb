import type { RateLimitSetting } from '#common';

/** The state of a bucket after one request took (or failed to take) a token. */
export interface BucketDecision {
  allowed: boolean;
  /** Tokens left after this request (fractional). */
  tokens: number;
}

export interface TokenBucketStore {
  /** Takes `cost` tokens (one per request; a bulk trigger one per event), all or none. */
  take(key: string, setting: RateLimitSetting, cost?: number): Promise<BucketDecision>;
}

/** Refills a bucket for the elapsed time, then takes `cost` tokens if it holds them. */
export function takeToken(tokens: number, elapsedMs: number, setting: RateLimitSetting, cost = 1): BucketDecision {
  const refilled = Math.min(setting.burst, tokens + (Math.max(0, elapsedMs) * setting.perSecond) / 1000);
  return refilled >= cost ? { allowed: true, tokens: refilled - cost } : { allowed: false, tokens: refilled };
}

const MAX_BUCKETS = 100_000;

/** Buckets of one process: used without Redis, and as the fallback while Redis is unreachable. */
export class LocalTokenBucketStore implements TokenBucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(key: string, setting: RateLimitSetting, cost = 1): Promise<BucketDecision> {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const decision = takeToken(bucket?.tokens ?? setting.burst, bucket ? now - bucket.at : 0, setting, cost);
    // A full bucket is the same as no bucket: dropping all when the map is large loses nothing but precision.
    if (!bucket && this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
    this.buckets.set(key, { tokens: decision.tokens, at: now });
    return Promise.resolve(decision);
  }
}

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers, plus Retry-After when limited: when the bucket
 * will hold `cost` tokens again (at most a full bucket: a cost beyond the burst never fits).
 */
export function rateLimitHeaders(
  decision: BucketDecision,
  setting: RateLimitSetting,
  cost = 1,
): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(setting.burst),
    'ratelimit-remaining': String(Math.floor(decision.tokens)),
    'ratelimit-reset': String(Math.ceil((setting.burst - decision.tokens) / setting.perSecond)),
  };
  if (!decision.allowed) {
    headers['retry-after'] = String(
      Math.max(1, Math.ceil((Math.min(cost, setting.burst) - decision.tokens) / setting.perSecond)),
    );
  }
  return headers;
}
