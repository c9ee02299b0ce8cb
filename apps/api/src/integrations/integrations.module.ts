import { Module } from '@nestjs/common';
import { CryptoModule } from '#application';
import { DalModule, IntegrationRepository } from '#dal';
import { IntegrationPresenter } from './integration-presenter.js';
import { IntegrationProvidersController } from './integration-providers.controller.js';
import { IntegrationsController } from './integrations.controller.js';
import { CreateIntegrationUseCase } from './use-cases/create-integration.use-case.js';
import { DeleteIntegrationUseCase } from './use-cases/delete-integration.use-case.js';
import { ListIntegrationsUseCase } from './use-cases/list-integrations.use-case.js';
import { SetPrimaryIntegrationUseCase } from './use-cases/set-primary-integration.use-case.js';
import { UpdateIntegrationUseCase } from './use-cases/update-integration.use-case.js';

@Module({
  imports: [CryptoModule, DalModule.forRepositories([IntegrationRepository])],
  controllers: [IntegrationProvidersController, IntegrationsController],
  providers: [
    IntegrationPresenter,
    CreateIntegrationUseCase,
    UpdateIntegrationUseCase,
    DeleteIntegrationUseCase,
    ListIntegrationsUseCase,
    SetPrimaryIntegrationUseCase,
  ],
})
export class IntegrationsModule {}
