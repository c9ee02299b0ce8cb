import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TenancyService } from '#application';
import { ApiKeyGuard } from './api-key.guard.js';

@Module({
  providers: [TenancyService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [TenancyService],
})
export class AuthModule {}
