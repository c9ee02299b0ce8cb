import { Module } from '@nestjs/common';
import { ActivityFeedRepository, DalModule } from '#dal';
import { NotificationsController } from './notifications.controller.js';
import { GetNotificationUseCase } from './use-cases/get-notification.use-case.js';
import { ListNotificationsUseCase } from './use-cases/list-notifications.use-case.js';

@Module({
  imports: [DalModule.forRepositories([ActivityFeedRepository])],
  controllers: [NotificationsController],
  providers: [ListNotificationsUseCase, GetNotificationUseCase],
})
export class NotificationsModule {}
