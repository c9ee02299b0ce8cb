import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ListNotificationsQueryDto } from './dto/list-notifications.query.js';
import { NotificationItemDto, NotificationPageDto } from './dto/notification-response.dto.js';
import { GetNotificationUseCase } from './use-cases/get-notification.use-case.js';
import { ListNotificationsUseCase } from './use-cases/list-notifications.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Notifications')
@ApiErrorResponses()
@Access('content')
@Controller('v1/notifications')
export class NotificationsController {
  constructor(
    private readonly listNotifications: ListNotificationsUseCase,
    private readonly getNotification: GetNotificationUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List notifications with their subscriber, workflow, jobs and execution details' })
  @ApiOkResponse({ type: NotificationPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    return this.listNotifications.execute(auth, query);
  }

  @Get(':notificationId')
  @ApiOperation({
    summary: 'Get a notification with its subscriber, workflow, jobs and execution details',
    description: 'The same item as in the list; 404 for a notification of another environment.',
  })
  @ApiOkResponse({ type: NotificationItemDto })
  async get(@Auth() auth: AuthContext, @Param('notificationId') notificationId: string): Promise<NotificationItemDto> {
    return this.getNotification.execute(auth, notificationId);
  }
}
