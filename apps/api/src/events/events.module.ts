import { Module } from '@nestjs/common';
import { WorkflowCache } from '#event-processing';
import { EventsController } from './events.controller.js';
import { BulkTriggerEventUseCase } from './use-cases/bulk-trigger-event.use-case.js';
import { CancelTriggerUseCase } from './use-cases/cancel-trigger.use-case.js';
import { TriggerEventUseCase } from './use-cases/trigger-event.use-case.js';

@Module({
  controllers: [EventsController],
  providers: [TriggerEventUseCase, BulkTriggerEventUseCase, CancelTriggerUseCase, WorkflowCache],
})
export class EventsModule {}
