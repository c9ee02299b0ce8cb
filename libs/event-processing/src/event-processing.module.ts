import { Module } from '@nestjs/common';
import {
  CryptoModule,
  EmailLayoutsModule,
  EnvironmentVariablesCacheModule,
  TranslationsCacheModule,
  IdempotencyKeyExpiry,
  MessageStateService,
  RetentionPass,
  SubscriberChannelsResolver,
  SubscriberPreferenceService,
  TemplatesModule,
  WebhookOutboxModule,
  WorkflowCacheModule,
  SubscriberWrites,
} from '#application';
import {
  DalModule,
  EnvironmentRepository,
  ExecutionDetailRepository,
  IdempotencyRepository,
  InboxMessageRepository,
  IntegrationRepository,
  JobRepository,
  MaintenanceStatusRepository,
  MessageRepository,
  NotificationRepository,
  PreferenceRepository,
  RetentionRepository,
  ActivityPartitionRepository,
  SubscriberRepository,
  TenantRepository,
  TopicRepository,
  TriggerEventRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '#dal';
import { ProvidersModule } from '#providers';
import { EngineEvents } from './engine-events.js';
import { FanOutProcessor } from './fan-out/fan-out.processor.js';
import { ChunkWriter } from './fan-out/chunk-writer.js';
import { FanOutService } from './fan-out/fan-out.service.js';
import { MaintenanceRun } from './maintenance/maintenance-run.js';
import { MaintenanceSchedule } from './maintenance/maintenance-schedule.js';
import { RecoverySweeper } from './recovery/recovery-sweeper.js';
import { PartitionStatistics } from './maintenance/partition-statistics.js';
import { STEP_HANDLER_PROVIDERS } from './steps/handlers/step-handlers.js';
import { ProviderSender } from './steps/provider-sender.js';
import { RunStepProcessor } from './steps/run-step.processor.js';
import { StepContextLoader } from './steps/step-context.js';
import { StepDispatch } from './steps/step-dispatch.js';
import { StepFinisher } from './steps/step-finisher.js';
import { StepGates } from './steps/step-gates.js';
import { StepRunner } from './steps/step-runner.service.js';
import { SystemProcessor } from './system.processor.js';
import { WebhookDeliveryProcessor } from './webhooks/webhook-delivery.processor.js';
import { WebhookSender } from './webhooks/webhook-sender.js';
import { WebhookSweeper } from './webhooks/webhook-sweeper.js';

/** The queue consumers. Only the worker role (or ROLE=all) imports this module. */
@Module({
  imports: [
    ProvidersModule,
    TemplatesModule,
    WorkflowCacheModule,
    CryptoModule,
    EmailLayoutsModule,
    EnvironmentVariablesCacheModule,
    TranslationsCacheModule,
    WebhookOutboxModule,
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
      // The maintenance job's.
      EnvironmentRepository,
      RetentionRepository,
      ActivityPartitionRepository,
      IdempotencyRepository,
      MaintenanceStatusRepository,
      WebhookDeliveryRepository,
      WebhookEndpointRepository,
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
    StepDispatch,
    ...STEP_HANDLER_PROVIDERS,
    ProviderSender,
    RecoverySweeper,
    WebhookDeliveryProcessor,
    WebhookSender,
    WebhookSweeper,
    SubscriberChannelsResolver,
    SubscriberPreferenceService,
    SubscriberWrites,
    // The system queue's wake-up of snoozed messages.
    MessageStateService,
    MaintenanceRun,
    MaintenanceSchedule,
    PartitionStatistics,
    RetentionPass,
    IdempotencyKeyExpiry,
  ],
  exports: [RecoverySweeper, MaintenanceRun, PartitionStatistics, EngineEvents],
})
export class EventProcessingModule {}
