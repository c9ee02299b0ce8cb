import { Module } from '@nestjs/common';
import { MessageStateService, SubscriberChannelsResolver, WebhookOutboxModule, SubscriberWrites } from '#application';
import {
  DalModule,
  InboxMessageRepository,
  IntegrationRepository,
  MessageRepository,
  SubscriberPresenceRepository,
  SubscriberRepository,
} from '#dal';
import { SubscriberCredentialsController } from './subscriber-credentials.controller.js';
import { SubscribersV1Controller } from './subscribers-v1.controller.js';
import { SubscribersV2Controller } from './subscribers-v2.controller.js';
import { SubscribersService } from './subscribers.service.js';
import { BulkUpsertSubscribersUseCase } from './use-cases/bulk-upsert-subscribers.use-case.js';
import { MarkMessagesUseCase } from './use-cases/mark-messages.use-case.js';
import { SubscriberFeedUseCase } from './use-cases/subscriber-feed.use-case.js';
import { ReplaceCredentialsUseCase } from './use-cases/replace-credentials.use-case.js';
import { UpdateCredentialsUseCase } from './use-cases/update-credentials.use-case.js';
import { UpdateOnlineStatusUseCase } from './use-cases/update-online-status.use-case.js';

@Module({
  // IntegrationRepository: SubscriberChannelsResolver checks channel credentials against the integrations.
  // InboxMessageRepository: MarkMessagesUseCase moves messages through MessageStateService.
  imports: [
    WebhookOutboxModule,
    DalModule.forRepositories([
      SubscriberRepository,
      SubscriberPresenceRepository,
      MessageRepository,
      IntegrationRepository,
      InboxMessageRepository,
    ]),
  ],
  controllers: [SubscribersV2Controller, SubscribersV1Controller, SubscriberCredentialsController],
  providers: [
    SubscriberWrites,
    SubscriberChannelsResolver,
    SubscribersService,
    BulkUpsertSubscribersUseCase,
    UpdateCredentialsUseCase,
    ReplaceCredentialsUseCase,
    UpdateOnlineStatusUseCase,
    MessageStateService,
    MarkMessagesUseCase,
    SubscriberFeedUseCase,
  ],
})
export class SubscribersModule {}
