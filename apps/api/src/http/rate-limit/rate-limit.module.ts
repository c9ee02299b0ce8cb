import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Logger } from 'pino';
import { AppConfig, LOGGER } from '#common';
import { RateLimitGuard, TOKEN_BUCKET_STORE } from './rate-limit.guard.js';
import { RedisTokenBucketStore } from './redis-token-bucket.js';
import { LocalTokenBucketStore, type TokenBucketStore } from './token-bucket.js';

/**
 * Register after AuthModule: global guards run in registration order and this one needs the caller.
 * Global so the inbox session guard reaches the same bucket store without importing this module.
 */
@Global()
@Module({
  providers: [
    {
      provide: TOKEN_BUCKET_STORE,
      inject: [AppConfig, LOGGER],
      useFactory: (config: AppConfig, logger: Logger): TokenBucketStore =>
        config.redisUrl && config.rateLimitEnabled
          ? new RedisTokenBucketStore(config.redisUrl, logger)
          : new LocalTokenBucketStore(),
    },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  // The inbox session guard keeps its per-subscriber buckets in the same store.
  exports: [TOKEN_BUCKET_STORE],
})
export class RateLimitModule implements OnModuleDestroy {
  constructor(@Inject(TOKEN_BUCKET_STORE) private readonly store: TokenBucketStore) {}

  onModuleDestroy(): void {
    if (this.store instanceof RedisTokenBucketStore) this.store.close();
  }
}
