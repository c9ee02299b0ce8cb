import { Module } from '@nestjs/common';
import {
  CryptoModule,
  EmailLayoutsModule,
  EnvironmentVariablesCacheModule,
  MessageStateService,
  SubscriberChannelsResolver,
  SubscriberPreferenceService,
  TemplatesModule,
  WorkflowCacheModule,
} from '#application';
import {
  DalModule,
  ExecutionDetailRepository,
  InboxMessageRepository,
  IntegrationRepository,
  JobRepository,
  MessageRepository,
  NotificationRepository,
  PreferenceRepository,
  SubscriberRepository,
  TenantRepository,
  TopicRepository,
  TriggerEventRepository,
} from '#dal';
import { ProvidersModule } from '#providers';
import { EngineEvents } from './engine-events.js';
import { FanOutProcessor } from './fan-out/fan-out.processor.js';
import { ChunkWriter } from './fan-out/chunk-writer.js';
import { FanOutService } from './fan-out/fan-out.service.js';
import { RecoverySweeper } from './recovery/recovery-sweeper.js';
import { STEP_HANDLER_PROVIDERS } from './steps/handlers/step-handlers.js';
import { ProviderSender } from './steps/provider-sender.js';
import { RunStepProcessor } from './steps/run-step.processor.js';
import { StepContextLoader } from './steps/step-context.js';
import { StepFinisher } from './steps/step-finisher.js';
import { StepGates } from './steps/step-gates.js';
import { StepRunner } from './steps/step-runner.service.js';
import { SystemProcessor } from './system.processor.js';

/** The queue consumers. Only the worker role (or ROLE=all) imports this module. */
@Module({
  imports: [
    ProvidersModule,
    TemplatesModule,
    WorkflowCacheModule,
    CryptoModule,
    EmailLayoutsModule,
    EnvironmentVariablesCacheModule,
    DalModule.forRepositories([
      TriggerEventRepository,
      NotificationRepository,
      JobRepository,
      ExecutionDetailRepository,
      InboxMessageRepository,
      MessageRepository,
      SubscriberRepository,
      TopicRepository,
      TenantRepository,
      IntegrationRepository,
      PreferenceRepository,
    ]),
  ],
  providers: [
    EngineEvents,
    SystemProcessor,
    FanOutProcessor,
    FanOutService,
    ChunkWriter,
    RunStepProcessor,
    StepRunner,
    StepContextLoader,
    StepGates,
    StepFinisher,
    ...STEP_HANDLER_PROVIDERS,
    ProviderSender,
    RecoverySweeper,
    SubscriberChannelsResolver,
    SubscriberPreferenceService,
    // The system queue's wake-up of snoozed messages.
    MessageStateService,
  ],
  exports: [RecoverySweeper, EngineEvents],
})
export class EventProcessingModule {}
