import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ListNotificationsQueryDto } from './dto/list-notifications.query.js';
import { NotificationPageDto } from './dto/notification-response.dto.js';
import { ListNotificationsUseCase } from './use-cases/list-notifications.use-case.js';

@ApiTags('Notifications')
@ApiErrorResponses()
@Controller('v1/notifications')
export class NotificationsController {
  constructor(private readonly listNotifications: ListNotificationsUseCase) {}

  @Get()
  @ApiOperation({ summary: 'List notifications with their subscriber, workflow, jobs and execution details' })
  @ApiOkResponse({ type: NotificationPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    return this.listNotifications.execute(auth, query);
  }
}
