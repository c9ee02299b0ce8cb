import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, DomainError, type RateLimitSetting } from '#common';
import { TOKEN_BUCKET_STORE } from '../http/rate-limit/rate-limit.guard.js';
import { rateLimitHeaders, type TokenBucketStore } from '../http/rate-limit/token-bucket.js';

const BUCKETS = {
  /** Every guarded `/v1/inbox/*` request of one subscriber. */
  subscriber: { setting: (config: AppConfig) => config.inboxRateLimit, who: 'this subscriber' },
  /** Session starts of one environment: the one unauthenticated inbox route, and it writes subscribers. */
  session: { setting: (config: AppConfig) => config.inboxSessionRateLimit, who: 'this environment' },
} satisfies Record<string, { setting: (config: AppConfig) => RateLimitSetting; who: string }>;

/** Token buckets of the browser-facing inbox, in the store the API-key routes use (Redis when configured). */
@Injectable()
export class InboxRateLimiter {
  constructor(
    private readonly config: AppConfig,
    @Inject(TOKEN_BUCKET_STORE) private readonly buckets: TokenBucketStore,
  ) {}

  /** Takes one token of `id`'s bucket: the rate-limit headers to send, or a 429 with Retry-After. */
  async take(bucket: keyof typeof BUCKETS, id: string): Promise<Record<string, string>> {
    if (!this.config.rateLimitEnabled) return {};
    const setting = BUCKETS[bucket].setting(this.config);
    const decision = await this.buckets.take(`${this.config.queuePrefix}:ratelimit:inbox-${bucket}:${id}`, setting);
    const headers = rateLimitHeaders(decision, setting);
    if (!decision.allowed) {
      const message = `Too many inbox requests for ${BUCKETS[bucket].who}, retry after ${headers['retry-after']} s`;
      throw new DomainError('RATE_LIMITED', message, undefined, headers);
    }
    return headers;
  }
}
