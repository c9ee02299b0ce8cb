import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SubscriberNotificationsService, type BulkOperation, type MessageTransition } from '#application';
import type { SubscriberRow } from '#dal';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CountNotificationsQueryDto,
  InboxNotificationPageDto,
  MarkNotificationsAsSeenDto,
  SnoozeNotificationDto,
  UpdateAllNotificationsDto,
} from '../subscriber-notifications/dto/subscriber-notifications.dto.js';
import {
  InboxActionDto,
  InboxCountsDto,
  InboxListNotificationsQueryDto,
  InboxNotificationEnvelopeDto,
} from './dto/inbox-notifications.dto.js';
import { InboxSessionAuth, InboxSubscriber, InboxSubscriberRow } from './inbox-session.guard.js';
import type { InboxSession } from './session-token.js';

/** The session's subscriber's own in-app notifications; another subscriber's id is a 404. */
@ApiTags('Inbox')
@ApiErrorResponses()
@InboxSessionAuth()
@Controller('v1/inbox/notifications')
export class InboxNotificationsController {
  constructor(private readonly notifications: SubscriberNotificationsService) {}

  @Get()
  @ApiOperation({
    summary: 'List notifications',
    description: 'Newest first; neither archived nor snoozed unless asked.',
  })
  @ApiOkResponse({ type: InboxNotificationPageDto })
  list(
    @InboxSubscriber() session: InboxSession,
    @InboxSubscriberRow() subscriber: SubscriberRow,
    @Query() query: InboxListNotificationsQueryDto,
  ): Promise<InboxNotificationPageDto> {
    return this.notifications.list(session.environmentId, subscriber, { ...query, contextKeys: session.contextKeys });
  }

  @Get('count')
  @ApiOperation({ summary: 'Count notifications', description: 'One count per filter of the `filters` JSON array.' })
  @ApiOkResponse({ type: InboxCountsDto })
  async count(
    @InboxSubscriber() session: InboxSession,
    @InboxSubscriberRow() subscriber: SubscriberRow,
    @Query() query: CountNotificationsQueryDto,
  ): Promise<InboxCountsDto> {
    return {
      data: await this.notifications.count(session.environmentId, subscriber, query.filters, session.contextKeys),
    };
  }

  @Post('seen')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Mark notifications as seen',
    description: 'The given ids, or every one matching tags/data.',
  })
  @ApiNoContentResponse()
  async seen(@InboxSubscriber() session: InboxSession, @Body() body: MarkNotificationsAsSeenDto): Promise<void> {
    await this.notifications.markAsSeen(session.environmentId, session.subscriberId, {
      ...body,
      contextKeys: session.contextKeys,
    });
  }

  @Post('read')
  @HttpCode(204)
  @ApiOperation({ summary: 'Mark all as read' })
  @ApiNoContentResponse()
  readAll(@InboxSubscriber() session: InboxSession, @Body() body: UpdateAllNotificationsDto): Promise<void> {
    return this.bulk(session, 'read', body);
  }

  @Post('archive')
  @HttpCode(204)
  @ApiOperation({ summary: 'Archive all' })
  @ApiNoContentResponse()
  archiveAll(@InboxSubscriber() session: InboxSession, @Body() body: UpdateAllNotificationsDto): Promise<void> {
    return this.bulk(session, 'archive', body);
  }

  @Post('read-archive')
  @HttpCode(204)
  @ApiOperation({ summary: 'Archive all read' })
  @ApiNoContentResponse()
  archiveAllRead(@InboxSubscriber() session: InboxSession, @Body() body: UpdateAllNotificationsDto): Promise<void> {
    return this.bulk(session, 'read-archive', body);
  }

  @Post('delete')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete all' })
  @ApiNoContentResponse()
  deleteAll(@InboxSubscriber() session: InboxSession, @Body() body: UpdateAllNotificationsDto): Promise<void> {
    return this.bulk(session, 'delete', body);
  }

  @Delete(':notificationId/delete')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a notification' })
  @ApiNoContentResponse()
  async delete(@InboxSubscriber() session: InboxSession, @Param('notificationId') id: string): Promise<void> {
    await this.notifications.deleteOne(session.environmentId, session.subscriberId, id, session.contextKeys);
  }

  @Patch(':notificationId/read')
  @ApiOperation({ summary: 'Mark as read' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  read(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'read' });
  }

  @Patch(':notificationId/unread')
  @ApiOperation({ summary: 'Mark as unread' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  unread(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'unread' });
  }

  @Patch(':notificationId/archive')
  @ApiOperation({ summary: 'Archive', description: 'Archiving also marks it read.' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  archive(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'archive' });
  }

  @Patch(':notificationId/unarchive')
  @ApiOperation({ summary: 'Unarchive' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  unarchive(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'unarchive' });
  }

  @Patch(':notificationId/snooze')
  @ApiOperation({ summary: 'Snooze', description: 'Until snoozeUntil (future, at most 90 days); then delivered anew.' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  snooze(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
    @Body() body: SnoozeNotificationDto,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'snooze', until: body.snoozeUntil });
  }

  @Patch(':notificationId/unsnooze')
  @ApiOperation({ summary: 'Unsnooze', description: 'It comes back now, delivered anew.' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  unsnooze(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'unsnooze' });
  }

  @Patch(':notificationId/complete')
  @ApiOperation({ summary: 'Complete the primary or secondary action' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  complete(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
    @Body() body: InboxActionDto,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'completeAction', action: body.actionType });
  }

  @Patch(':notificationId/revert')
  @ApiOperation({ summary: 'Revert the primary or secondary action to pending' })
  @ApiOkResponse({ type: InboxNotificationEnvelopeDto })
  revert(
    @InboxSubscriber() session: InboxSession,
    @Param('notificationId') id: string,
    @Body() body: InboxActionDto,
  ): Promise<InboxNotificationEnvelopeDto> {
    return this.apply(session, id, { type: 'revertAction', action: body.actionType });
  }

  private async bulk(session: InboxSession, operation: BulkOperation, body: UpdateAllNotificationsDto): Promise<void> {
    await this.notifications.bulk(session.environmentId, session.subscriberId, operation, {
      ...body,
      contextKeys: session.contextKeys,
    });
  }

  private async apply(
    session: InboxSession,
    id: string,
    transition: MessageTransition,
  ): Promise<InboxNotificationEnvelopeDto> {
    return {
      data: await this.notifications.apply(
        session.environmentId,
        session.subscriberId,
        id,
        transition,
        session.contextKeys,
      ),
    };
  }
}
