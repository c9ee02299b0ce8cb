import { Module } from '@nestjs/common';
import { EnvironmentSyncService, WorkflowCacheModule } from '#application';
import { DalModule, EnvironmentContentRepository, EnvironmentRepository } from '#dal';
import { AuthModule } from '../auth/auth.module.js';
import { EnvironmentsV2Controller } from './environments-v2.controller.js';
import { EnvironmentsController } from './environments.controller.js';
import { EnvironmentsService } from './environments.service.js';
import { CreateEnvironmentUseCase } from './use-cases/create-environment.use-case.js';
import { DeleteEnvironmentUseCase } from './use-cases/delete-environment.use-case.js';
import { UpdateEnvironmentUseCase } from './use-cases/update-environment.use-case.js';

@Module({
  // AuthModule: TenancyService makes the new environment's key, ApiKeyCache forgets a deleted one's.
  imports: [
    AuthModule,
    WorkflowCacheModule,
    DalModule.forRepositories([EnvironmentRepository, EnvironmentContentRepository]),
  ],
  controllers: [EnvironmentsController, EnvironmentsV2Controller],
  providers: [
    EnvironmentsService,
    EnvironmentSyncService,
    CreateEnvironmentUseCase,
    UpdateEnvironmentUseCase,
    DeleteEnvironmentUseCase,
  ],
})
export class EnvironmentsModule {}
