import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, DomainError, type RateLimitSetting } from '#common';
import { TOKEN_BUCKET_STORE } from '../http/rate-limit/rate-limit.guard.js';
import { rateLimitHeaders, type BucketDecision, type TokenBucketStore } from '../http/rate-limit/token-bucket.js';

const BUCKETS = {
  /** Every guarded `/v1/inbox/*` request of one subscriber. */
  subscriber: {
    setting: (config: AppConfig) => config.inboxRateLimit,
    refusal: 'Too many inbox requests for this subscriber',
  },
  /** Session starts of one environment that passed the HMAC check: the one unauthenticated inbox route writes subscribers. */
  session: {
    setting: (config: AppConfig) => config.inboxSessionRateLimit,
    refusal: 'Too many inbox requests for this environment',
  },
  /** Failed subscriberHash checks of one client: its wrong hashes must not use up its environment's sessions. */
  sessionFailure: {
    setting: (config: AppConfig) => config.inboxSessionFailureRateLimit,
    refusal: 'Too many failed inbox session attempts from this client',
  },
} satisfies Record<string, { setting: (config: AppConfig) => RateLimitSetting; refusal: string }>;

type Bucket = keyof typeof BUCKETS;

/** Token buckets of the browser-facing inbox, in the store the API-key routes use (Redis when configured). */
@Injectable()
export class InboxRateLimiter {
  constructor(
    private readonly config: AppConfig,
    @Inject(TOKEN_BUCKET_STORE) private readonly buckets: TokenBucketStore,
  ) {}

  /** Takes one token of `id`'s bucket: the rate-limit headers to send, or a 429 with Retry-After. */
  async take(bucket: Bucket, id: string): Promise<Record<string, string>> {
    if (!this.config.rateLimitEnabled) return {};
    return this.decide(bucket, await this.buckets.take(this.keyOf(bucket, id), BUCKETS[bucket].setting(this.config)));
  }

  /**
   * Runs an authentication check on `id`'s budget of failures: each UNAUTHORIZED it throws takes a
   * token, and once the bucket is empty `id` gets a 429 before the check runs at all.
   */
  async onFailureBudget<T>(bucket: Bucket, id: string, check: () => Promise<T>): Promise<T> {
    if (!this.config.rateLimitEnabled) return check();
    // A take of no token reads the bucket without spending it: successes cost nothing.
    const left = await this.buckets.take(this.keyOf(bucket, id), BUCKETS[bucket].setting(this.config), 0);
    this.decide(bucket, { allowed: left.tokens >= 1, tokens: left.tokens });
    try {
      return await check();
    } catch (error) {
      // Concurrent failures may all pass the read above: the one that finds the bucket empty is a 429.
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') await this.take(bucket, id);
      throw error;
    }
  }

  private keyOf(bucket: Bucket, id: string): string {
    return `${this.config.queuePrefix}:ratelimit:inbox-${bucket}:${id}`;
  }

  private decide(bucket: Bucket, decision: BucketDecision): Record<string, string> {
    const headers = rateLimitHeaders(decision, BUCKETS[bucket].setting(this.config));
    if (!decision.allowed) {
      const message = `${BUCKETS[bucket].refusal}, retry after ${headers['retry-after']} s`;
      throw new DomainError('RATE_LIMITED', message, undefined, headers);
    }
    return headers;
  }
}
