import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller.js';
import { ListNotificationsUseCase } from './use-cases/list-notifications.use-case.js';

@Module({ controllers: [NotificationsController], providers: [ListNotificationsUseCase] })
export class NotificationsModule {}
