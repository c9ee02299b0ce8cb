import { Module } from '@nestjs/common';
import { MessageStateService } from '#application';
import { DalModule, InboxMessageRepository, SubscriberRepository } from '#dal';
import { SubscriberNotificationsController } from './subscriber-notifications.controller.js';

/** Novu's v2 inbox routes over a subscriber's in-app messages and their state machine. */
@Module({
  imports: [DalModule.forRepositories([SubscriberRepository, InboxMessageRepository])],
  controllers: [SubscriberNotificationsController],
  providers: [MessageStateService],
})
export class SubscriberNotificationsModule {}
