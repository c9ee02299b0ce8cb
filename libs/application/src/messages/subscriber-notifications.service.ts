import { Injectable } from '@nestjs/common';
import { DomainError, isId } from '#common';
import type { InboxFilter } from '#dal';
import { parseCountFilters, SEVERITIES } from './count-filters.js';
import { toInboxNotificationResponse, type InboxNotificationResponse } from './inbox-notification-response.js';
import { MessageStateService, type ReadingSubscriber } from './message-state.service.js';
import type { MessageTransition } from './message-state.js';

function notificationId(value: string): string {
  if (!isId(value)) throw DomainError.validation('notificationId', 'notificationId must be a UUID', value);
  return value;
}

/** The tags and data a bulk operation is narrowed to. */
export interface NotificationBulkFilter {
  tags?: string[];
  data?: Record<string, unknown>;
  /** Exactly these contexts (`[]`: none); undefined is every context. */
  contextKeys?: string[];
}

export interface NotificationListQuery extends NotificationBulkFilter {
  limit: number;
  after?: string;
  offset?: number;
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  snoozed?: boolean;
  severity?: string[];
  /** Unix ms */
  createdGte?: number;
  createdLte?: number;
}

export interface InboxNotificationPage {
  data: InboxNotificationResponse[];
  hasMore: boolean;
  filter: Record<string, unknown>;
}

/** Which bulk operation: each one narrows the filter to the messages it can change. */
export type BulkOperation = 'read' | 'archive' | 'read-archive' | 'delete';

/**
 * When a snooze ends: the api schedules a queue job, which this lib cannot import, so it is handed
 * in by whoever provides the service.
 */
export abstract class SnoozeWakeUps {
  abstract schedule(environmentId: string, messageId: string, until: Date): Promise<void>;
}

function bulkFilter(body: NotificationBulkFilter): InboxFilter {
  return {
    ...(body.tags ? { tags: body.tags } : {}),
    ...(body.data ? { data: body.data } : {}),
    ...(body.contextKeys ? { contextKeys: body.contextKeys } : {}),
  };
}

function withoutContext(filter: InboxFilter): Omit<InboxFilter, 'contextKeys'> {
  const { contextKeys: _contextKeys, ...rest } = filter;
  return rest;
}

/**
 * A subscriber's in-app notifications as Novu's inbox shapes them, for both doors to them: the v2
 * API-key routes (`/v2/subscribers/{id}/notifications`) and the browser's session routes (`/v1/inbox`).
 * `subscriberId` is the external id (reads also take a loaded row); every change goes through MessageStateService.
 */
@Injectable()
export class SubscriberNotificationsService {
  constructor(
    private readonly state: MessageStateService,
    private readonly wakeUps: SnoozeWakeUps,
  ) {}

  async list(
    environmentId: string,
    subscriberId: ReadingSubscriber,
    query: NotificationListQuery,
  ): Promise<InboxNotificationPage> {
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
      contextKeys: query.contextKeys,
    };
    const defined: InboxFilter = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
    const { subscriber, rows, hasMore } = await this.state.list(environmentId, subscriberId, defined, {
      limit: query.limit,
      after: query.after,
      offset: query.offset,
    });
    return {
      data: rows.map((row) => toInboxNotificationResponse(row, subscriber)),
      hasMore,
      // The echo shows the filters asked for; the context is the session's, not one of them.
      filter: { ...withoutContext(defined), limit: query.limit, ...(query.after ? { after: query.after } : {}) },
    };
  }

  /**
   * One count per filter of the `filters` JSON array, each echoed back as given. `contextKeys` (an
   * inbox session's) narrows every filter to exactly that context.
   */
  async count(
    environmentId: string,
    subscriberId: ReadingSubscriber,
    rawFilters: string,
    contextKeys?: string[],
  ): Promise<{ count: number; filter: Record<string, unknown> }[]> {
    const filters = parseCountFilters(rawFilters);
    const counts = await this.state.counts(
      environmentId,
      subscriberId,
      filters.map(({ filter }) => (contextKeys ? { ...filter, contextKeys } : filter)),
    );
    return filters.map(({ given }, index) => ({ count: counts[index], filter: given }));
  }

  /** Unread notifications in the inbox (neither archived nor snoozed), in all and per severity. */
  async unreadCount(
    environmentId: string,
    subscriberId: string,
    contextKeys?: string[],
  ): Promise<{ total: number; severity: Record<(typeof SEVERITIES)[number], number> }> {
    const [total, high, medium, low, none] = await this.state.counts(environmentId, subscriberId, [
      { read: false, contextKeys },
      ...SEVERITIES.map((severity) => ({ read: false, severity: [severity], contextKeys })),
    ]);
    return { total, severity: { high, medium, low, none } };
  }

  async markAsSeen(
    environmentId: string,
    subscriberId: string,
    body: NotificationBulkFilter & { notificationIds?: string[] },
  ): Promise<void> {
    const filter = { ...bulkFilter(body), ...(body.notificationIds ? { ids: body.notificationIds } : {}) };
    await this.state.applyAll(environmentId, subscriberId, filter, { type: 'seen' });
  }

  async bulk(
    environmentId: string,
    subscriberId: string,
    operation: BulkOperation,
    body: NotificationBulkFilter,
  ): Promise<void> {
    const filter = bulkFilter(body);
    if (operation === 'delete') await this.state.delete(environmentId, subscriberId, filter);
    else if (operation === 'read')
      await this.state.applyAll(environmentId, subscriberId, { ...filter, read: false }, { type: 'read' });
    else {
      const narrowed = { ...filter, archived: false, ...(operation === 'read-archive' ? { read: true } : {}) };
      await this.state.applyAll(environmentId, subscriberId, narrowed, { type: 'archive' });
    }
  }

  /** `contextKeys`: an inbox session's, outside which the notification is not found. */
  async deleteOne(environmentId: string, subscriberId: string, id: string, contextKeys?: string[]): Promise<void> {
    const deleted = await this.state.delete(environmentId, subscriberId, {
      ids: [notificationId(id)],
      ...(contextKeys ? { contextKeys } : {}),
    });
    if (deleted === 0) throw new DomainError('MESSAGE_NOT_FOUND', `Notification ${id} was not found`);
  }

  /**
   * One notification moved by a transition; a snooze also schedules its end. `contextKeys`: an inbox
   * session's, outside which the notification is not found.
   */
  async apply(
    environmentId: string,
    subscriberId: string,
    id: string,
    transition: MessageTransition,
    contextKeys?: string[],
  ): Promise<InboxNotificationResponse> {
    const { subscriber, row } = await this.state.apply(
      environmentId,
      subscriberId,
      notificationId(id),
      transition,
      contextKeys,
    );
    if (transition.type === 'snooze') await this.wakeUps.schedule(environmentId, id, transition.until);
    return toInboxNotificationResponse(row, subscriber);
  }
}
