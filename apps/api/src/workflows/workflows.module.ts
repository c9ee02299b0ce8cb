import { Module } from '@nestjs/common';
import {
  EmailLayoutsModule,
  EnvironmentVariablesCacheModule,
  TranslationsCacheModule,
  TemplatesModule,
  WebhookOutboxModule,
  WorkflowCacheModule,
  WorkflowWriter,
} from '#application';
import { DalModule, EnvironmentRepository, WorkflowRepository } from '#dal';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsService } from './workflows.service.js';
import { LoadWorkflowsDirectoryUseCase } from './use-cases/load-workflows-directory.use-case.js';
import { PreviewStepUseCase } from './v2/use-cases/preview-step.use-case.js';
import { SyncWorkflowUseCase } from './v2/use-cases/sync-workflow.use-case.js';
import { WorkflowV2Input } from './v2/use-cases/workflow-v2-input.js';
import { WorkflowsV2Controller } from './v2/workflows-v2.controller.js';
import { WorkflowsV2Service } from './v2/workflows-v2.service.js';

@Module({
  // EnvironmentRepository: the WORKFLOWS_DIR loader writes into every environment; sync finds its target.
  imports: [
    TemplatesModule,
    WorkflowCacheModule,
    EmailLayoutsModule,
    EnvironmentVariablesCacheModule,
    TranslationsCacheModule,
    WebhookOutboxModule,
    DalModule.forRepositories([WorkflowRepository, EnvironmentRepository]),
  ],
  controllers: [WorkflowsController, WorkflowsV2Controller],
  providers: [
    WorkflowsService,
    WorkflowWriter,
    LoadWorkflowsDirectoryUseCase,
    WorkflowsV2Service,
    WorkflowV2Input,
    SyncWorkflowUseCase,
    PreviewStepUseCase,
  ],
  exports: [LoadWorkflowsDirectoryUseCase],
})
export class WorkflowsModule {}
