import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError } from '#common';
import { ACTION_TYPES, SubscriberNotificationsService, type ActionType, type MessageTransition } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  ContextKeysQueryDto,
  CountNotificationsQueryDto,
  InboxNotificationDto,
  InboxNotificationPageDto,
  ListNotificationsQueryDto,
  MarkNotificationsAsSeenDto,
  NotificationCountDto,
  SnoozeNotificationDto,
  UpdateAllNotificationsDto,
} from './dto/subscriber-notifications.dto.js';
import { Access } from '../auth/access-areas.js';

function actionType(value: string): ActionType {
  if (!(ACTION_TYPES as readonly string[]).includes(value))
    throw DomainError.validation('actionType', 'actionType must be primary or secondary', value);
  return value as ActionType;
}

/** Novu's v2 inbox operations on a subscriber's in-app notifications (`subscribers.notifications.*`). */
@ApiTags('Subscriber notifications')
@ApiErrorResponses()
@Access('content')
@Controller('v2/subscribers/:subscriberId/notifications')
export class SubscriberNotificationsController {
  constructor(private readonly notifications: SubscriberNotificationsService) {}

  @Get()
  @ApiOperation({
    summary: "List a subscriber's in-app notifications",
    description: 'Newest first; without archived/snoozed filters, archived and snoozed notifications are left out.',
  })
  @ApiOkResponse({ type: InboxNotificationPageDto })
  async list(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: ListNotificationsQueryDto,
  ): Promise<InboxNotificationPageDto> {
    return this.notifications.list(auth.environmentId, subscriberId, query);
  }

  @Get('count')
  @ApiOperation({ summary: 'Count notifications', description: 'One count per filter of the `filters` JSON array.' })
  @ApiOkResponse({ type: [NotificationCountDto] })
  async count(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: CountNotificationsQueryDto,
  ): Promise<NotificationCountDto[]> {
    return this.notifications.count(auth.environmentId, subscriberId, query.filters);
  }

  @Post('seen')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Mark notifications as seen',
    description: 'The given ids, or every one matching tags/data.',
  })
  @ApiNoContentResponse()
  async markAsSeen(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkNotificationsAsSeenDto,
  ): Promise<void> {
    await this.notifications.markAsSeen(auth.environmentId, subscriberId, body);
  }

  @Post('read')
  @HttpCode(204)
  @ApiOperation({ summary: 'Mark all notifications as read' })
  @ApiNoContentResponse()
  async markAllAsRead(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateAllNotificationsDto,
  ): Promise<void> {
    await this.notifications.bulk(auth.environmentId, subscriberId, 'read', body);
  }

  @Post('archive')
  @HttpCode(204)
  @ApiOperation({ summary: 'Archive all notifications' })
  @ApiNoContentResponse()
  async archiveAll(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateAllNotificationsDto,
  ): Promise<void> {
    await this.notifications.bulk(auth.environmentId, subscriberId, 'archive', body);
  }

  @Post('read-archive')
  @HttpCode(204)
  @ApiOperation({ summary: 'Archive all read notifications' })
  @ApiNoContentResponse()
  async archiveAllRead(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateAllNotificationsDto,
  ): Promise<void> {
    await this.notifications.bulk(auth.environmentId, subscriberId, 'read-archive', body);
  }

  @Post('delete')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete all notifications', description: 'They leave every list, feed and count.' })
  @ApiNoContentResponse()
  async deleteAll(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateAllNotificationsDto,
  ): Promise<void> {
    await this.notifications.bulk(auth.environmentId, subscriberId, 'delete', body);
  }

  @Delete(':notificationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a notification' })
  @ApiNoContentResponse()
  async delete(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<void> {
    await this.notifications.deleteOne(auth.environmentId, subscriberId, id);
  }

  @Patch(':notificationId/read')
  @ApiOperation({ summary: 'Mark a notification as read' })
  @ApiOkResponse({ type: InboxNotificationDto })
  markAsRead(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'read' });
  }

  @Patch(':notificationId/unread')
  @ApiOperation({ summary: 'Mark a notification as unread' })
  @ApiOkResponse({ type: InboxNotificationDto })
  markAsUnread(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'unread' });
  }

  @Patch(':notificationId/archive')
  @ApiOperation({ summary: 'Archive a notification', description: 'Archiving also marks it read.' })
  @ApiOkResponse({ type: InboxNotificationDto })
  archive(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'archive' });
  }

  @Patch(':notificationId/unarchive')
  @ApiOperation({ summary: 'Unarchive a notification' })
  @ApiOkResponse({ type: InboxNotificationDto })
  unarchive(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'unarchive' });
  }

  @Patch(':notificationId/snooze')
  @ApiOperation({
    summary: 'Snooze a notification',
    description:
      'Hidden from the default list until snoozeUntil (future, at most 90 days); it then comes back delivered anew.',
  })
  @ApiOkResponse({ type: InboxNotificationDto })
  snooze(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
    @Body() body: SnoozeNotificationDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'snooze', until: body.snoozeUntil });
  }

  @Patch(':notificationId/unsnooze')
  @ApiOperation({ summary: 'Unsnooze a notification', description: 'It comes back now, delivered anew.' })
  @ApiOkResponse({ type: InboxNotificationDto })
  unsnooze(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'unsnooze' });
  }

  @Patch(':notificationId/actions/:actionType/complete')
  @ApiOperation({ summary: "Complete a notification's primary or secondary action" })
  @ApiParam({ name: 'actionType', enum: ACTION_TYPES })
  @ApiOkResponse({ type: InboxNotificationDto })
  completeAction(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Param('actionType') type: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'completeAction', action: actionType(type) });
  }

  @Patch(':notificationId/actions/:actionType/revert')
  @ApiOperation({ summary: "Revert a notification's primary or secondary action to pending" })
  @ApiParam({ name: 'actionType', enum: ACTION_TYPES })
  @ApiOkResponse({ type: InboxNotificationDto })
  revertAction(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Param('actionType') type: string,
    @Query() _query: ContextKeysQueryDto,
  ): Promise<InboxNotificationDto> {
    return this.apply(auth, subscriberId, id, { type: 'revertAction', action: actionType(type) });
  }

  private apply(
    auth: AuthContext,
    subscriberId: string,
    id: string,
    transition: MessageTransition,
  ): Promise<InboxNotificationDto> {
    return this.notifications.apply(auth.environmentId, subscriberId, id, transition);
  }
}
