import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CryptoModule, TenancyService } from '#application';
import { DalModule, EnvironmentRepository } from '#dal';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKeyGuard } from './api-key.guard.js';

@Module({
  imports: [DalModule.forRepositories([EnvironmentRepository]), CryptoModule],
  providers: [TenancyService, ApiKeyCache, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [TenancyService, ApiKeyCache],
})
export class AuthModule {}
