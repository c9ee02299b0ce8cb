import { Module } from '@nestjs/common';
import { PreferenceWriter, SubscriberPreferenceService, WebhookOutboxModule } from '#application';
import { DalModule, PreferenceRepository, SubscriberRepository, WorkflowRepository } from '#dal';
import { SubscriberPreferencesBulkController } from './subscriber-preferences-bulk.controller.js';
import { SubscriberPreferencesController } from './subscriber-preferences.controller.js';
import { BulkUpdateSubscriberPreferencesUseCase } from './use-cases/bulk-update-subscriber-preferences.use-case.js';
import { GetSubscriberPreferencesUseCase } from './use-cases/get-subscriber-preferences.use-case.js';
import { PreferencesResponseBuilder } from './use-cases/preferences-response.builder.js';
import { UpdateSubscriberPreferencesUseCase } from './use-cases/update-subscriber-preferences.use-case.js';

@Module({
  imports: [
    WebhookOutboxModule,
    DalModule.forRepositories([PreferenceRepository, SubscriberRepository, WorkflowRepository]),
  ],
  controllers: [SubscriberPreferencesController, SubscriberPreferencesBulkController],
  providers: [
    PreferencesResponseBuilder,
    GetSubscriberPreferencesUseCase,
    UpdateSubscriberPreferencesUseCase,
    BulkUpdateSubscriberPreferencesUseCase,
    SubscriberPreferenceService,
    PreferenceWriter,
  ],
  exports: [SubscriberPreferenceService],
})
export class PreferencesModule {}
