import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, DomainError, type RateLimitSetting } from '#common';
import { normalizeEmail } from '#application';
import { clientBudgetId } from '../http/client-address.js';
import { TOKEN_BUCKET_STORE } from '../http/rate-limit/rate-limit.guard.js';
import { rateLimitHeaders, type TokenBucketStore } from '../http/rate-limit/token-bucket.js';

/**
 * Login attempts, per account (password guessing against one user) and per client address (one
 * client trying many users), in the store of the API's buckets (Redis when configured). Each attempt
 * costs a token of both before the password is hashed, so a flood costs no Argon2 time. Applied
 * whatever RATE_LIMIT_ENABLED says: this limit protects passwords, not capacity.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly config: AppConfig,
    @Inject(TOKEN_BUCKET_STORE) private readonly buckets: TokenBucketStore,
  ) {}

  async take(email: string, clientAddress: string): Promise<void> {
    const { account, address } = this.config.dashboardLoginRateLimits;
    await this.takeOne(`address:${clientBudgetId(clientAddress)}`, address, 'from this address');
    await this.takeOne(`account:${normalizeEmail(email)}`, account, 'for this account');
  }

  private async takeOne(id: string, setting: RateLimitSetting, whose: string): Promise<void> {
    const decision = await this.buckets.take(`${this.config.queuePrefix}:ratelimit:dashboard-login-${id}`, setting);
    if (decision.allowed) return;
    const headers = rateLimitHeaders(decision, setting);
    const message = `Too many login attempts ${whose}, retry after ${headers['retry-after']} s`;
    throw new DomainError('RATE_LIMITED', message, undefined, headers);
  }
}
