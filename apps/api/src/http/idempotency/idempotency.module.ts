import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import { DalModule, IdempotencyRepository } from '#dal';
import { completeOnSend, IdempotencyGuard } from './idempotency.guard.js';

@Module({
  imports: [DalModule.forRepositories([IdempotencyRepository])],
  providers: [{ provide: APP_GUARD, useClass: IdempotencyGuard }],
})
export class IdempotencyModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly keys: IdempotencyRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.adapterHost.httpAdapter
      .getInstance<FastifyInstance>()
      .addHook('onSend', completeOnSend(this.keys, this.logger));
  }
}
