import { Module } from '@nestjs/common';
import { DalModule, SubscriberRepository, TopicRepository, WorkflowRepository } from '#dal';
import { SubscriptionPreferencesView } from './subscription-preferences.view.js';
import { SubscriberTopicsController } from './subscriber-topics.controller.js';
import { TopicsController } from './topics.controller.js';
import { TopicsService } from './topics.service.js';
import { SubscriberTopicsUseCase } from './use-cases/subscriber-topics.use-case.js';
import { TopicSubscriptionsUseCase } from './use-cases/topic-subscriptions.use-case.js';

@Module({
  imports: [DalModule.forRepositories([TopicRepository, SubscriberRepository, WorkflowRepository])],
  controllers: [TopicsController, SubscriberTopicsController],
  providers: [TopicsService, TopicSubscriptionsUseCase, SubscriberTopicsUseCase, SubscriptionPreferencesView],
})
export class TopicsModule {}
