import { Module } from '@nestjs/common';
import { DalModule, MaintenanceStatusRepository } from '#dal';
import { AuthModule } from '../auth/auth.module.js';
import { MetricsController } from './metrics.controller.js';

/** AuthModule: a dashboard admin's session reads the metrics where METRICS_TOKEN guards them. */
@Module({
  imports: [AuthModule, DalModule.forRepositories([MaintenanceStatusRepository])],
  controllers: [MetricsController],
})
export class MetricsModule {}
