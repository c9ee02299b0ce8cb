import { Module } from '@nestjs/common';
import { TemplatesModule, WorkflowCacheModule, WorkflowWriter } from '#application';
import { DalModule, EnvironmentRepository, WorkflowRepository } from '#dal';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsService } from './workflows.service.js';
import { LoadWorkflowsDirectoryUseCase } from './use-cases/load-workflows-directory.use-case.js';

@Module({
  // EnvironmentRepository: the WORKFLOWS_DIR loader writes into every environment.
  imports: [
    TemplatesModule,
    WorkflowCacheModule,
    DalModule.forRepositories([WorkflowRepository, EnvironmentRepository]),
  ],
  controllers: [WorkflowsController],
  providers: [WorkflowsService, WorkflowWriter, LoadWorkflowsDirectoryUseCase],
  exports: [LoadWorkflowsDirectoryUseCase],
})
export class WorkflowsModule {}
