import { Module } from '@nestjs/common';
import { DalModule, MaintenanceStatusRepository } from '#dal';
import { MetricsController } from './metrics.controller.js';

@Module({ imports: [DalModule.forRepositories([MaintenanceStatusRepository])], controllers: [MetricsController] })
export class MetricsModule {}
