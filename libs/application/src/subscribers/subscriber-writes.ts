import { Injectable } from '@nestjs/common';
import { Clock } from '#common';
import {
  SubscriberRepository,
  type SubscriberRow,
  type SubscriberScope,
  type SubscriberUpsertInput,
  type SubscriberUpsertResult,
  type UpsertOptions,
} from '#dal';
import { webhookEvent } from '../webhooks/webhook-event.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { toSubscriberResponse } from './subscriber-response.js';

/**
 * The writes that create or delete subscribers, each committed with its subscriber.created or
 * subscriber.deleted webhook event: the subscribers API, the inbox session and a trigger's inline
 * subscribers all go through here.
 */
@Injectable()
export class SubscriberWrites {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  upsertDetailed(
    scope: SubscriberScope,
    inputs: SubscriberUpsertInput[],
    options: UpsertOptions = {},
  ): Promise<SubscriberUpsertResult[]> {
    const now = this.clock.now();
    return this.outbox.commitWithEvents(
      scope.environmentId,
      now,
      (tx) => this.subscribers.upsertManyDetailed(scope, inputs, options, tx),
      (results) => results.filter((result) => result.created).map((result) => createdEvent(result.row, now)),
    );
  }

  async upsert(
    scope: SubscriberScope,
    inputs: SubscriberUpsertInput[],
    options: UpsertOptions = {},
  ): Promise<SubscriberRow[]> {
    return (await this.upsertDetailed(scope, inputs, options)).map((result) => result.row);
  }

  /** Creates the subscriber unless its subscriberId exists, live or deleted (see the repository). */
  insertIfAbsent(scope: SubscriberScope, input: SubscriberUpsertInput): Promise<SubscriberRow | undefined> {
    const now = this.clock.now();
    return this.outbox.commitWithEvents(
      scope.environmentId,
      now,
      (tx) => this.subscribers.insertIfAbsent(scope, input, tx),
      (row) => (row ? [createdEvent(row, now)] : []),
    );
  }

  /** Deletes and erases the subscriber; its internal id, or undefined when there was none. */
  delete(environmentId: string, subscriberId: string): Promise<string | undefined> {
    const now = this.clock.now();
    return this.outbox.commitWithEvents(
      environmentId,
      now,
      (tx) => this.subscribers.softDelete(environmentId, subscriberId, tx),
      // Only ids: the erasure has just removed everything else of it.
      (rowId) => (rowId ? [webhookEvent('subscriber.deleted', { _id: rowId, subscriberId }, now)] : []),
    );
  }
}

function createdEvent(row: SubscriberRow, now: Date) {
  return webhookEvent('subscriber.created', { ...toSubscriberResponse(row) }, now, row.id);
}
