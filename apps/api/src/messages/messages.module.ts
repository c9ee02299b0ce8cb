import { Module } from '@nestjs/common';
import { WebhookOutboxModule } from '#application';
import { DalModule, MessageRepository, SubscriberRepository } from '#dal';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';

@Module({
  imports: [WebhookOutboxModule, DalModule.forRepositories([MessageRepository, SubscriberRepository])],
  controllers: [MessagesController],
  providers: [MessagesService],
})
export class MessagesModule {}
