import { Module } from '@nestjs/common';
import { DalModule, MessageRepository, SubscriberRepository } from '#dal';
import { MessagesController } from './messages.controller.js';
import { MessagesService } from './messages.service.js';

@Module({
  imports: [DalModule.forRepositories([MessageRepository, SubscriberRepository])],
  controllers: [MessagesController],
  providers: [MessagesService],
})
export class MessagesModule {}
