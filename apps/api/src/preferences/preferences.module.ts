import { Module } from '@nestjs/common';
import { SubscriberPreferenceService } from '#application';
import { DalModule, PreferenceRepository, SubscriberRepository, WorkflowRepository } from '#dal';
import { SubscriberPreferencesController } from './subscriber-preferences.controller.js';
import { GetSubscriberPreferencesUseCase } from './use-cases/get-subscriber-preferences.use-case.js';
import { PreferencesResponseBuilder } from './use-cases/preferences-response.builder.js';
import { UpdateSubscriberPreferencesUseCase } from './use-cases/update-subscriber-preferences.use-case.js';

@Module({
  imports: [DalModule.forRepositories([PreferenceRepository, SubscriberRepository, WorkflowRepository])],
  controllers: [SubscriberPreferencesController],
  providers: [
    PreferencesResponseBuilder,
    GetSubscriberPreferencesUseCase,
    UpdateSubscriberPreferencesUseCase,
    SubscriberPreferenceService,
  ],
  exports: [SubscriberPreferenceService],
})
export class PreferencesModule {}
