import { Module } from '@nestjs/common';
import {
  ApiKeyCacheModule,
  CryptoModule,
  EnvironmentSyncService,
  TenancyService,
  TranslationsCacheModule,
  WorkflowCacheModule,
  WebhookOutboxModule,
} from '#application';
import { ApiKeyRepository, DalModule, EnvironmentContentRepository, EnvironmentRepository } from '#dal';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { CreateApiKeyUseCase } from './api-keys/create-api-key.use-case.js';
import { ListApiKeysUseCase } from './api-keys/list-api-keys.use-case.js';
import { RevokeApiKeyUseCase } from './api-keys/revoke-api-key.use-case.js';
import { EnvironmentsV2Controller } from './environments-v2.controller.js';
import { EnvironmentsController } from './environments.controller.js';
import { EnvironmentsService } from './environments.service.js';
import { CreateEnvironmentUseCase } from './use-cases/create-environment.use-case.js';
import { DeleteEnvironmentUseCase } from './use-cases/delete-environment.use-case.js';
import { UpdateEnvironmentUseCase } from './use-cases/update-environment.use-case.js';

@Module({
  // TenancyService makes and seals keys; ApiKeyCache (the guard's) forgets a deleted environment's and a revoked one.
  imports: [
    WebhookOutboxModule,
    CryptoModule,
    ApiKeyCacheModule,
    WorkflowCacheModule,
    TranslationsCacheModule,
    DalModule.forRepositories([EnvironmentRepository, EnvironmentContentRepository, ApiKeyRepository]),
  ],
  controllers: [EnvironmentsController, EnvironmentsV2Controller, ApiKeysController],
  providers: [
    EnvironmentsService,
    EnvironmentSyncService,
    TenancyService,
    CreateEnvironmentUseCase,
    UpdateEnvironmentUseCase,
    DeleteEnvironmentUseCase,
    ListApiKeysUseCase,
    CreateApiKeyUseCase,
    RevokeApiKeyUseCase,
  ],
})
export class EnvironmentsModule {}
