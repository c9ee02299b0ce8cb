import { Module } from '@nestjs/common';
import { DalModule, SubscriberRepository, TopicRepository } from '#dal';
import { TopicsController } from './topics.controller.js';
import { TopicsService } from './topics.service.js';
import { TopicSubscriptionsUseCase } from './use-cases/topic-subscriptions.use-case.js';

@Module({
  imports: [DalModule.forRepositories([TopicRepository, SubscriberRepository])],
  controllers: [TopicsController],
  providers: [TopicsService, TopicSubscriptionsUseCase],
})
export class TopicsModule {}
