import { Module } from '@nestjs/common';
import {
  CryptoModule,
  MessageStateService,
  PreferenceWriter,
  SubscriberNotificationsService,
  TenancyService,
  WebhookOutboxModule,
  SubscriberWrites,
} from '#application';
import {
  DalModule,
  ContextRepository,
  InboxMessageRepository,
  EnvironmentRepository,
  InboxSessionRepository,
  IntegrationRepository,
  PreferenceRepository,
  SubscriberRepository,
  TopicRepository,
  WorkflowRepository,
} from '#dal';
import { snoozeWakeUpsProvider } from '../queue/snooze-wake-ups.js';
import { InboxNotificationsController } from './inbox-notifications.controller.js';
import { InboxPreferencesController } from './inbox-preferences.controller.js';
import { InboxPreviewController } from './inbox-preview.controller.js';
import { InboxSessionController } from './inbox-session.controller.js';
import { InboxRateLimiter } from './inbox-rate-limiter.js';
import { HmacRequirement } from './hmac-requirement.js';
import { InboxSessionGuard } from './inbox-session.guard.js';
import { InboxSessionValidator } from './inbox-session.validator.js';
import { InboxTopicsController } from './inbox-topics.controller.js';
import { InboxUnsupportedController } from './inbox-unsupported.controller.js';
import { SessionTokens } from './session-token.js';
import { InboxPreferencesUseCase } from './use-cases/inbox-preferences.use-case.js';
import { InboxScheduleDefaults } from './use-cases/inbox-schedule-defaults.js';
import { InboxTopicSubscriptionsUseCase } from './use-cases/inbox-topic-subscriptions.use-case.js';
import { StartInboxSessionUseCase } from './use-cases/start-inbox-session.use-case.js';
import { SubscriberHashVerifier } from './use-cases/subscriber-hash.verifier.js';

/** Novu's `/v1/inbox` routes for browsers (@novu/js, `<Inbox />`): a subscriber session instead of an API key. */
@Module({
  imports: [
    WebhookOutboxModule,
    DalModule.forRepositories([
      ContextRepository,
      EnvironmentRepository,
      SubscriberRepository,
      InboxSessionRepository,
      IntegrationRepository,
      PreferenceRepository,
      WorkflowRepository,
      TopicRepository,
      InboxMessageRepository,
    ]),
    CryptoModule,
  ],
  controllers: [
    InboxSessionController,
    InboxNotificationsController,
    InboxPreferencesController,
    InboxTopicsController,
    InboxUnsupportedController,
    InboxPreviewController,
  ],
  providers: [
    SubscriberWrites,
    SessionTokens,
    InboxSessionGuard,
    InboxSessionValidator,
    HmacRequirement,
    InboxRateLimiter,
    TenancyService,
    SubscriberHashVerifier,
    InboxScheduleDefaults,
    StartInboxSessionUseCase,
    InboxPreferencesUseCase,
    InboxTopicSubscriptionsUseCase,
    MessageStateService,
    SubscriberNotificationsService,
    snoozeWakeUpsProvider,
    PreferenceWriter,
  ],
})
export class InboxModule {}
