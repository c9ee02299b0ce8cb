import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import {
  DATABASE,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type Database,
  type DbExecutor,
  type NewWebhookEvent,
} from '#dal';

/**
 * Wakes the lanes of endpoints that have new deliveries, through the queue; the api and the worker
 * provide it (libs/application has no queue).
 */
export abstract class WebhookDispatch {
  abstract dispatch(environmentId: string, endpointIds: string[]): Promise<void>;
}

/**
 * The webhook outbox. `record` runs in the transaction of the change that causes the events, so an
 * event exists exactly when its change committed; `dispatch` hands the deliveries to the queue once
 * that transaction committed, waking the endpoints' lanes. A lost dispatch is harmless: the webhook sweeper sends what stays pending.
 */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly queue: WebhookDispatch,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * A change and the events it causes in one transaction, the events dispatched once it committed.
   * `events` sees what the change returned (no event when it changed nothing).
   */
  async commitWithEvents<T>(
    environmentId: string,
    now: Date,
    change: (tx: DbExecutor) => Promise<T>,
    events: (result: T) => NewWebhookEvent[],
  ): Promise<T> {
    const { result, endpointIds } = await this.db.transaction(async (tx) => {
      const changed = await change(tx);
      return { result: changed, endpointIds: await this.record(tx, environmentId, events(changed), now) };
    });
    void this.dispatch(environmentId, endpointIds);
    return result;
  }

  /** Returns the endpoints to dispatch after commit (none when no endpoint wants these events). */
  async record(executor: DbExecutor, environmentId: string, events: NewWebhookEvent[], now: Date): Promise<string[]> {
    if (events.length === 0) return [];
    const types = [...new Set(events.map((event) => event.type))];
    return this.recordWanted(executor, environmentId, types, () => events, now);
  }

  /**
   * `record` for a hot path: the events are built only when an endpoint wants one of `types`, so a
   * deployment without endpoints pays one indexed read per commit and nothing per event.
   */
  async recordWanted(
    executor: DbExecutor,
    environmentId: string,
    types: readonly string[],
    build: () => NewWebhookEvent[],
    now: Date,
  ): Promise<string[]> {
    const endpoints = await this.endpoints.subscribed(environmentId, [...types], executor);
    if (endpoints.length === 0) return [];
    return this.deliveries.record(executor, environmentId, endpoints, build(), now);
  }

  /** Not awaited by callers' answers: a failure leaves the deliveries to the sweeper. */
  async dispatch(environmentId: string, endpointIds: string[]): Promise<void> {
    if (endpointIds.length === 0) return;
    await this.queue.dispatch(environmentId, endpointIds).catch((error: unknown) => {
      this.logger.warn({ err: error, endpointIds }, 'webhook dispatch failed; left to the webhook sweeper');
    });
  }
}
