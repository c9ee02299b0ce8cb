import { Module } from '@nestjs/common';
import { TopicsController } from './topics.controller.js';
import { TopicsService } from './topics.service.js';
import { TopicSubscriptionsUseCase } from './use-cases/topic-subscriptions.use-case.js';

@Module({ controllers: [TopicsController], providers: [TopicsService, TopicSubscriptionsUseCase] })
export class TopicsModule {}
