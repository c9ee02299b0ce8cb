import { Module } from '@nestjs/common';
import { DalModule, SubscriberRepository, TopicRepository } from '#dal';
import { SubscriberTopicsController } from './subscriber-topics.controller.js';
import { TopicsController } from './topics.controller.js';
import { TopicsService } from './topics.service.js';
import { SubscriberTopicsUseCase } from './use-cases/subscriber-topics.use-case.js';
import { TopicSubscriptionsUseCase } from './use-cases/topic-subscriptions.use-case.js';

@Module({
  imports: [DalModule.forRepositories([TopicRepository, SubscriberRepository])],
  controllers: [TopicsController, SubscriberTopicsController],
  providers: [TopicsService, TopicSubscriptionsUseCase, SubscriberTopicsUseCase],
})
export class TopicsModule {}
