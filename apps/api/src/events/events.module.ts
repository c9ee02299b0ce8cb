import { Module } from '@nestjs/common';
import { WorkflowCacheModule } from '#application';
import {
  ContextRepository,
  DalModule,
  ExecutionDetailRepository,
  JobRepository,
  TenantRepository,
  TriggerEventRepository,
} from '#dal';
import { EventsController } from './events.controller.js';
import { BroadcastEventUseCase } from './use-cases/broadcast-event.use-case.js';
import { BulkTriggerEventUseCase } from './use-cases/bulk-trigger-event.use-case.js';
import { CancelTriggerUseCase } from './use-cases/cancel-trigger.use-case.js';
import { TriggerEventUseCase } from './use-cases/trigger-event.use-case.js';

@Module({
  imports: [
    WorkflowCacheModule,
    DalModule.forRepositories([
      ContextRepository,
      TenantRepository,
      TriggerEventRepository,
      JobRepository,
      ExecutionDetailRepository,
    ]),
  ],
  controllers: [EventsController],
  providers: [TriggerEventUseCase, BulkTriggerEventUseCase, CancelTriggerUseCase, BroadcastEventUseCase],
})
export class EventsModule {}
