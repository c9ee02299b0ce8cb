import { Injectable } from '@nestjs/common';
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
import { parseCountFilters } from './count-filters.js';
import {
  SEVERITIES,
  type InboxNotificationDto,
  type InboxNotificationPageDto,
  type ListNotificationsQueryDto,
  type MarkNotificationsAsSeenDto,
  type NotificationCountDto,
  type UpdateAllNotificationsDto,
} from './dto/subscriber-notifications.dto.js';

export function notificationId(value: string): string {
  if (!isId(value)) throw DomainError.validation('notificationId', 'notificationId must be a UUID', value);
  return value;
}

export function actionType(value: unknown): ActionType {
  if (!(ACTION_TYPES as readonly unknown[]).includes(value))
    throw DomainError.validation('actionType', 'actionType must be primary or secondary', value);
  return value as ActionType;
}

/** The filter of a bulk body: tags and data as given (contextKeys are accepted and ignored). */
function bulkFilter(body: UpdateAllNotificationsDto): InboxFilter {
  return { ...(body.tags ? { tags: body.tags } : {}), ...(body.data ? { data: body.data } : {}) };
}

/** Which bulk operation: each one narrows the filter to the messages it can change. */
export type BulkOperation = 'read' | 'archive' | 'read-archive' | 'delete';

/**
 * A subscriber's in-app notifications as Novu's inbox shapes them, for both doors to them: the v2
 * API-key routes (`/v2/subscribers/{id}/notifications`) and the browser's session routes (`/v1/inbox`).
 * `subscriberId` is the external id; every change goes through MessageStateService.
 */
@Injectable()
export class SubscriberNotificationsService {
  constructor(
    private readonly state: MessageStateService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async list(
    environmentId: string,
    subscriberId: string,
    query: ListNotificationsQueryDto & { tags?: string[] },
  ): Promise<InboxNotificationPageDto> {
    const filter: InboxFilter = {
      tags: query.tags,
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
    const { subscriber, rows, hasMore } = await this.state.list(environmentId, subscriberId, defined, {
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

  /** One count per filter of the `filters` JSON array, each echoed back as given. */
  async count(environmentId: string, subscriberId: string, rawFilters: string): Promise<NotificationCountDto[]> {
    const filters = parseCountFilters(rawFilters);
    const counts = await this.state.counts(
      environmentId,
      subscriberId,
      filters.map(({ filter }) => filter),
    );
    return filters.map(({ given }, index) => ({ count: counts[index], filter: given }));
  }

  /** Unread notifications in the inbox (neither archived nor snoozed), in all and per severity. */
  async unreadCount(
    environmentId: string,
    subscriberId: string,
  ): Promise<{ total: number; severity: Record<(typeof SEVERITIES)[number], number> }> {
    const [total, ...bySeverity] = await this.state.counts(environmentId, subscriberId, [
      { read: false },
      ...SEVERITIES.map((severity) => ({ read: false, severity: [severity] })),
    ]);
    return { total, severity: Object.fromEntries(SEVERITIES.map((name, i) => [name, bySeverity[i]])) as never };
  }

  async markAsSeen(environmentId: string, subscriberId: string, body: MarkNotificationsAsSeenDto): Promise<void> {
    const filter = { ...bulkFilter(body), ...(body.notificationIds ? { ids: body.notificationIds } : {}) };
    await this.state.applyAll(environmentId, subscriberId, filter, { type: 'seen' });
  }

  async bulk(
    environmentId: string,
    subscriberId: string,
    operation: BulkOperation,
    body: UpdateAllNotificationsDto,
  ): Promise<void> {
    const filter = bulkFilter(body);
    if (operation === 'read')
      await this.state.applyAll(environmentId, subscriberId, { ...filter, read: false }, { type: 'read' });
    else if (operation === 'archive')
      await this.state.applyAll(environmentId, subscriberId, { ...filter, archived: false }, { type: 'archive' });
    else if (operation === 'read-archive')
      await this.state.applyAll(
        environmentId,
        subscriberId,
        { ...filter, archived: false, read: true },
        { type: 'archive' },
      );
    else await this.state.delete(environmentId, subscriberId, filter);
  }

  async deleteOne(environmentId: string, subscriberId: string, id: string): Promise<void> {
    const deleted = await this.state.delete(environmentId, subscriberId, { ids: [notificationId(id)] });
    if (deleted === 0) throw new DomainError('MESSAGE_NOT_FOUND', `Notification ${id} was not found`);
  }

  /** One notification moved by a transition; a snooze also schedules its end. */
  async apply(
    environmentId: string,
    subscriberId: string,
    id: string,
    transition: MessageTransition,
  ): Promise<InboxNotificationDto> {
    const { subscriber, row } = await this.state.apply(environmentId, subscriberId, notificationId(id), transition);
    if (transition.type === 'snooze') {
      // The wake-up carries the snooze it ends: a later unsnooze or another snooze makes it a no-op.
      await this.queue.add(
        'wake-snoozed-message',
        { environmentId, messageId: id, until: transition.until.toISOString() },
        { delay: Math.max(0, transition.until.getTime() - this.clock.now().getTime()) },
      );
    }
    return toInboxNotificationResponse(row, subscriber);
  }
}
