import { Inject, Injectable } from '@nestjs/common';
import { Clock, DomainError } from '#common';
import {
  DATABASE,
  InboxMessageRepository,
  type Database,
  type DbExecutor,
  SubscriberRepository,
  type InboxFilter,
  type InboxPageMessage,
  type MessageRow,
  type MessageView,
  type SubscriberRow,
} from '#dal';
import { RealtimePublisher } from '../realtime/realtime-publisher.js';
import { messageEvents, transitionEventType } from '../webhooks/message-events.js';
import type { WebhookEventType } from '../webhooks/webhook-event-types.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { transitionChanges, type MessageTransition } from './message-state.js';

/** What a list shows when the request says nothing: Novu's inbox default, neither archived nor snoozed. */
function listFilter(filter: InboxFilter): InboxFilter {
  return { archived: false, snoozed: false, ...filter };
}

/**
 * A subscriber's in-app messages through their state machine (`transitionChanges`): lists and counts,
 * one message or all matching a filter moved by a transition, deletes, and the end of a snooze.
 * `subscriberId` is the external id; an unknown one is a 404 like any subscriber route. Every change
 * is pushed to the subscriber's open inbox sockets (new badge counts; a woken message as received).
 */
/**
 * Who reads: the external subscriberId, or a subscriber row loaded moments ago (the inbox session
 * guard keeps one for a few seconds). Changes always look the row up again: they publish to the
 * subscriber's sockets only when it is online, which a cached row may not know yet.
 */
export type ReadingSubscriber = string | SubscriberRow;

@Injectable()
export class MessageStateService {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly messages: InboxMessageRepository,
    private readonly clock: Clock,
    private readonly realtime: RealtimePublisher,
    private readonly outbox: WebhookOutbox,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  /** The subscriber by its external id, or the row a caller already holds (reads only: see ReadingSubscriber). */
  async subscriber(environmentId: string, subscriberId: ReadingSubscriber): Promise<SubscriberRow> {
    if (typeof subscriberId !== 'string') return subscriberId;
    const row = await this.subscribers.findBySubscriberId(environmentId, subscriberId);
    if (!row) throw new DomainError('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} not found`);
    return row;
  }

  async list(
    environmentId: string,
    subscriberId: ReadingSubscriber,
    filter: InboxFilter,
    page: { limit: number; after?: string; offset?: number },
  ): Promise<{ subscriber: SubscriberRow; rows: InboxPageMessage[]; hasMore: boolean }> {
    const subscriber = await this.subscriber(environmentId, subscriberId);
    const { rows, hasMore } = await this.messages.list(environmentId, subscriber.id, listFilter(filter), page);
    return { subscriber, rows, hasMore };
  }

  async counts(environmentId: string, subscriberId: ReadingSubscriber, filters: InboxFilter[]): Promise<number[]> {
    const subscriber = await this.subscriber(environmentId, subscriberId);
    return Promise.all(filters.map((filter) => this.messages.count(environmentId, subscriber.id, listFilter(filter))));
  }

  /**
   * One message, whatever its state; another subscriber's or environment's message is a 404, and so
   * is one outside `contextKeys` when given.
   */
  async apply(
    environmentId: string,
    subscriberId: string,
    messageId: string,
    transition: MessageTransition,
    contextKeys?: string[],
  ): Promise<{ subscriber: SubscriberRow; row: MessageRow }> {
    const subscriber = await this.subscriber(environmentId, subscriberId);
    const current = await this.messages.findOne(environmentId, subscriber.id, messageId);
    if (!current || (contextKeys && !sameKeys(current.contextKeys, contextKeys)))
      throw new DomainError('MESSAGE_NOT_FOUND', `Notification ${messageId} was not found`);
    const now = this.clock.now();
    const changes = transitionChanges(transition, now, current);
    const [row] = await this.withEvents(environmentId, transitionEventType(transition.type), now, (tx) =>
      this.messages.update(environmentId, subscriber.id, { ids: [messageId] }, changes, now, tx),
    );
    if (!row) throw new DomainError('MESSAGE_NOT_FOUND', `Notification ${messageId} was not found`);
    this.realtime.countsChanged(environmentId, subscriber, [row.contextKeys]);
    return { subscriber, row };
  }

  /** Every message matching the filter (the action transitions need one message and are not offered here). */
  async applyAll(
    environmentId: string,
    subscriberId: string,
    filter: InboxFilter,
    transition: Exclude<MessageTransition, { type: 'completeAction' | 'revertAction' | 'setAction' }>,
  ): Promise<MessageRow[]> {
    const subscriber = await this.subscriber(environmentId, subscriberId);
    const now = this.clock.now();
    const changes = transitionChanges(transition, now);
    const rows = await this.withEvents(environmentId, transitionEventType(transition.type), now, (tx) =>
      this.messages.update(environmentId, subscriber.id, filter, changes, now, tx),
    );
    if (rows.length > 0)
      this.realtime.countsChanged(
        environmentId,
        subscriber,
        rows.map((row) => row.contextKeys),
      );
    return rows;
  }

  /** The rows with their trigger's payload and overrides, as the v1 message routes answer them. */
  async views(environmentId: string, rows: MessageRow[]): Promise<MessageView[]> {
    return this.messages.withTriggerFields(environmentId, rows);
  }

  async delete(environmentId: string, subscriberId: string, filter: InboxFilter): Promise<number> {
    const subscriber = await this.subscriber(environmentId, subscriberId);
    const now = this.clock.now();
    const deleted = await this.withEvents(environmentId, 'message.deleted', now, (tx) =>
      this.messages.delete(environmentId, subscriber.id, filter, now, tx),
    );
    if (deleted.length > 0)
      this.realtime.countsChanged(environmentId, subscriber, filter.contextKeys ? [filter.contextKeys] : []);
    return deleted.length;
  }

  /** The scheduled end of a snooze; a snooze changed since it was scheduled is left alone. */
  async wake(environmentId: string, messageId: string, until: Date): Promise<MessageRow | undefined> {
    const now = this.clock.now();
    const [row] = await this.withEvents(environmentId, 'message.unsnoozed', now, async (tx) => {
      const woken = await this.messages.wake(environmentId, messageId, until, now, tx);
      return woken ? [woken] : [];
    });
    if (row) this.realtime.delivered(environmentId, [row]);
    return row;
  }

  /** A change of messages committed with the webhook events it causes (none for `type` undefined). */
  private withEvents(
    environmentId: string,
    type: WebhookEventType | undefined,
    now: Date,
    change: (tx: DbExecutor) => Promise<MessageRow[]>,
  ): Promise<MessageRow[]> {
    if (!type) return change(this.db);
    return this.outbox.commitWithEvents(environmentId, now, change, (rows) => messageEvents(type, rows, now));
  }
}

function sameKeys(stored: string[], expected: string[]): boolean {
  return stored.length === expected.length && expected.every((key) => stored.includes(key));
}
