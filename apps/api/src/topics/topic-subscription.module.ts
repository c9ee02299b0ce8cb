import { Module } from '@nestjs/common';
import { DalModule, SubscriberRepository, TopicRepository, WorkflowRepository } from '#dal';
import { SubscriptionPreferencesView } from './subscription-preferences.view.js';
import { TopicSubscriptionController } from './topic-subscription.controller.js';
import { TopicSubscriptionUseCase } from './use-cases/topic-subscription.use-case.js';

@Module({
  imports: [DalModule.forRepositories([TopicRepository, SubscriberRepository, WorkflowRepository])],
  controllers: [TopicSubscriptionController],
  providers: [TopicSubscriptionUseCase, SubscriptionPreferencesView],
})
export class TopicSubscriptionModule {}
