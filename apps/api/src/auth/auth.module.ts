import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyCacheModule, CryptoModule, DashboardSessionsService, TenancyService } from '#application';
import { DalModule, DashboardSessionRepository, DashboardUserRepository, EnvironmentRepository } from '#dal';
import { AuthGuard } from './auth.guard.js';
import { DashboardSessionAuthenticator } from './dashboard-session.authenticator.js';

@Module({
  imports: [
    DalModule.forRepositories([EnvironmentRepository, DashboardSessionRepository, DashboardUserRepository]),
    CryptoModule,
    ApiKeyCacheModule,
  ],
  providers: [
    TenancyService,
    DashboardSessionsService,
    DashboardSessionAuthenticator,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TenancyService],
})
export class AuthModule {}
