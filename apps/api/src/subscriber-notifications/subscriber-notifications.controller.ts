import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Clock, DomainError, isId } from '#common';
import {
  ACTION_TYPES,
  MessageStateService,
  toInboxNotificationResponse,
  type ActionType,
  type MessageTransition,
} from '#application';
import type { InboxFilter } from '#dal';
import { JobQueue } from '#event-processing/producer';
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
import { parseCountFilters } from './count-filters.js';

function notificationId(value: string): string {
  if (!isId(value)) throw DomainError.validation('notificationId', 'notificationId must be a UUID', value);
  return value;
}

function actionType(value: string): ActionType {
  if (!(ACTION_TYPES as readonly string[]).includes(value))
    throw DomainError.validation('actionType', 'actionType must be primary or secondary', value);
  return value as ActionType;
}

/** The filter of a bulk body: tags and data as given (contextKeys are accepted and ignored). */
function bulkFilter(body: UpdateAllNotificationsDto): InboxFilter {
  return { ...(body.tags ? { tags: body.tags } : {}), ...(body.data ? { data: body.data } : {}) };
}

/** Novu's v2 inbox operations on a subscriber's in-app notifications (`subscribers.notifications.*`). */
@ApiTags('Subscriber notifications')
@ApiErrorResponses()
@Controller('v2/subscribers/:subscriberId/notifications')
export class SubscriberNotificationsController {
  constructor(
    private readonly state: MessageStateService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

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
    const filter: InboxFilter = {
      read: query.read,
      seen: query.seen,
      archived: query.archived,
      snoozed: query.snoozed,
      severity: query.severity,
      data: query.data,
      createdGte: query.createdGte === undefined ? undefined : new Date(query.createdGte),
      createdLte: query.createdLte === undefined ? undefined : new Date(query.createdLte),
    };
    const defined = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
    const { subscriber, rows, hasMore } = await this.state.list(auth.environmentId, subscriberId, defined, {
      limit: query.limit,
      after: query.after,
      offset: query.offset,
    });
    return {
      data: rows.map((row) => toInboxNotificationResponse(row, subscriber)),
      hasMore,
      filter: { ...defined, limit: query.limit, ...(query.after ? { after: query.after } : {}) },
    };
  }

  @Get('count')
  @ApiOperation({ summary: 'Count notifications', description: 'One count per filter of the `filters` JSON array.' })
  @ApiOkResponse({ type: [NotificationCountDto] })
  async count(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: CountNotificationsQueryDto,
  ): Promise<NotificationCountDto[]> {
    const filters = parseCountFilters(query.filters);
    const counts = await this.state.counts(
      auth.environmentId,
      subscriberId,
      filters.map(({ filter }) => filter),
    );
    return filters.map(({ given }, index) => ({ count: counts[index], filter: given }));
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
    const filter = { ...bulkFilter(body), ...(body.notificationIds ? { ids: body.notificationIds } : {}) };
    await this.state.applyAll(auth.environmentId, subscriberId, filter, { type: 'seen' });
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
    await this.state.applyAll(auth.environmentId, subscriberId, { ...bulkFilter(body), read: false }, { type: 'read' });
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
    const filter = { ...bulkFilter(body), archived: false };
    await this.state.applyAll(auth.environmentId, subscriberId, filter, { type: 'archive' });
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
    const filter = { ...bulkFilter(body), archived: false, read: true };
    await this.state.applyAll(auth.environmentId, subscriberId, filter, { type: 'archive' });
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
    await this.state.delete(auth.environmentId, subscriberId, bulkFilter(body));
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
    const deleted = await this.state.delete(auth.environmentId, subscriberId, { ids: [notificationId(id)] });
    if (deleted === 0) throw new DomainError('MESSAGE_NOT_FOUND', `Notification ${id} was not found`);
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
  async snooze(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('notificationId') id: string,
    @Query() _query: ContextKeysQueryDto,
    @Body() body: SnoozeNotificationDto,
  ): Promise<InboxNotificationDto> {
    const until = body.snoozeUntil;
    const answer = await this.apply(auth, subscriberId, id, { type: 'snooze', until });
    // The wake-up carries the snooze it ends: a later unsnooze or another snooze makes it a no-op.
    await this.queue.add(
      'wake-snoozed-message',
      { environmentId: auth.environmentId, messageId: id, until: until.toISOString() },
      { delay: Math.max(0, until.getTime() - this.clock.now().getTime()) },
    );
    return answer;
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

  private async apply(
    auth: AuthContext,
    subscriberId: string,
    id: string,
    transition: MessageTransition,
  ): Promise<InboxNotificationDto> {
    const { subscriber, row } = await this.state.apply(
      auth.environmentId,
      subscriberId,
      notificationId(id),
      transition,
    );
    return toInboxNotificationResponse(row, subscriber);
  }
}
