import { Module } from '@nestjs/common';
import { DalModule, SubscriberRepository, TopicRepository } from '#dal';
import { TopicSubscriptionController } from './topic-subscription.controller.js';
import { TopicSubscriptionUseCase } from './use-cases/topic-subscription.use-case.js';

@Module({
  imports: [DalModule.forRepositories([TopicRepository, SubscriberRepository])],
  controllers: [TopicSubscriptionController],
  providers: [TopicSubscriptionUseCase],
})
export class TopicSubscriptionModule {}
