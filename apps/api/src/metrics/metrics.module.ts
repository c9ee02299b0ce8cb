import { Module } from '@nestjs/common';
import { DashboardSessionsService } from '#application';
import {
  DalModule,
  DashboardSessionRepository,
  DashboardUserRepository,
  EnvironmentRepository,
  MaintenanceStatusRepository,
} from '#dal';
import { DashboardSessionAuthenticator } from '../auth/dashboard-session.authenticator.js';
import { MetricsController } from './metrics.controller.js';

/** The session authenticator: a dashboard admin's session reads the metrics where METRICS_TOKEN guards them. */
@Module({
  imports: [
    DalModule.forRepositories([
      MaintenanceStatusRepository,
      EnvironmentRepository,
      DashboardSessionRepository,
      DashboardUserRepository,
    ]),
  ],
  controllers: [MetricsController],
  providers: [DashboardSessionsService, DashboardSessionAuthenticator],
})
export class MetricsModule {}
