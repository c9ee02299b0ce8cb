import { Module } from '@nestjs/common';
import { MessageStateService, SubscriberNotificationsService, WebhookOutboxModule } from '#application';
import { DalModule, InboxMessageRepository, SubscriberRepository } from '#dal';
import { snoozeWakeUpsProvider } from '../queue/snooze-wake-ups.js';
import { SubscriberMessagesV1Controller } from './subscriber-messages-v1.controller.js';
import { SubscriberNotificationsController } from './subscriber-notifications.controller.js';

/** Novu's v2 inbox routes and v1 message actions over a subscriber's in-app messages and their state machine. */
@Module({
  imports: [WebhookOutboxModule, DalModule.forRepositories([SubscriberRepository, InboxMessageRepository])],
  controllers: [SubscriberNotificationsController, SubscriberMessagesV1Controller],
  providers: [MessageStateService, SubscriberNotificationsService, snoozeWakeUpsProvider],
})
export class SubscriberNotificationsModule {}
