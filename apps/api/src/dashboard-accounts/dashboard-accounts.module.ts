import { Module } from '@nestjs/common';
import { DashboardSessionsService, DashboardUsersService } from '#application';
import { DalModule, DashboardSessionRepository, DashboardUserRepository, EnvironmentRepository } from '#dal';
import { DashboardSessionController } from './dashboard-session.controller.js';
import { DashboardSetupController } from './dashboard-setup.controller.js';
import { DashboardUsersController } from './dashboard-users.controller.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { DescribeSessionUseCase } from './use-cases/describe-session.use-case.js';
import { SignInUseCase } from './use-cases/sign-in.use-case.js';

/** /v1/dashboard/*: the operator dashboard's sign-in, sessions and users (see docs/dashboard-accounts.md). */
@Module({
  imports: [DalModule.forRepositories([DashboardUserRepository, DashboardSessionRepository, EnvironmentRepository])],
  controllers: [DashboardSessionController, DashboardUsersController, DashboardSetupController],
  providers: [DashboardSessionsService, DashboardUsersService, LoginRateLimiter, SignInUseCase, DescribeSessionUseCase],
})
export class DashboardAccountsModule {}
