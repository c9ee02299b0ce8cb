import { Module } from '@nestjs/common';
import { LoadWorkflowsDirectoryUseCase, TemplatesModule, WorkflowCacheModule, WorkflowWriter } from '#application';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsService } from './workflows.service.js';

@Module({
  imports: [TemplatesModule, WorkflowCacheModule],
  controllers: [WorkflowsController],
  providers: [WorkflowsService, WorkflowWriter, LoadWorkflowsDirectoryUseCase],
  exports: [LoadWorkflowsDirectoryUseCase],
})
export class WorkflowsModule {}
