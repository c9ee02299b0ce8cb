import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyCacheModule, CryptoModule, TenancyService } from '#application';
import { DalModule, EnvironmentRepository } from '#dal';
import { ApiKeyGuard } from './api-key.guard.js';

@Module({
  imports: [DalModule.forRepositories([EnvironmentRepository]), CryptoModule, ApiKeyCacheModule],
  providers: [TenancyService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [TenancyService],
})
export class AuthModule {}
