import { Module } from '@nestjs/common';
import { MessageStateService } from '#application';
import { DalModule, InboxMessageRepository, SubscriberRepository } from '#dal';
import { SubscriberMessagesV1Controller } from './subscriber-messages-v1.controller.js';
import { SubscriberNotificationsController } from './subscriber-notifications.controller.js';
import { SubscriberNotificationsService } from './subscriber-notifications.service.js';

/**
 * Novu's v2 inbox routes and v1 message actions over a subscriber's in-app messages and their state
 * machine; exports the notification operations the browser inbox routes share.
 */
@Module({
  imports: [DalModule.forRepositories([SubscriberRepository, InboxMessageRepository])],
  controllers: [SubscriberNotificationsController, SubscriberMessagesV1Controller],
  providers: [MessageStateService, SubscriberNotificationsService],
  exports: [SubscriberNotificationsService],
})
export class SubscriberNotificationsModule {}
