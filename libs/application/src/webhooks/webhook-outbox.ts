import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import {
  DATABASE,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type Database,
  type DbExecutor,
  type DeliveryLease,
  type NewWebhookEvent,
  type WebhookSend,
} from '#dal';

/**
 * The door from the outbox to the endpoints' lanes; the api and the worker provide it (libs/application
 * has no queue). `dispatch` wakes lanes, through the queue where none runs in this process. A process
 * whose lanes run here (the worker) also takes the deliveries its own commits write straight from
 * memory: written already leased to it, they need no claim, and are sent as soon as the commit is done.
 */
export abstract class WebhookDispatch {
  abstract dispatch(environmentId: string, endpointIds: string[]): Promise<void>;
  /** Of `endpointIds`, those whose lanes here take new deliveries from memory, and until when they are leased. */
  abstract localLease(environmentId: string, endpointIds: string[]): DeliveryLease | undefined;
  /** After commit, the deliveries written under `localLease`; false when the lanes no longer take them. */
  abstract handOver(environmentId: string, sends: WebhookSend[]): boolean;
}

/** What a commit's events left to do once it committed: lanes to wake, and deliveries to hand over. */
export interface RecordedEvents {
  endpointIds: string[];
  /** Leased to this process: its lanes send them (released for any lane should they have stopped meanwhile). */
  handOver: WebhookSend[];
}

/** A commit that gave no endpoint a delivery. */
export const NO_WEBHOOK_EVENTS: RecordedEvents = { endpointIds: [], handOver: [] };

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
    const { result, recorded } = await this.db.transaction(async (tx) => {
      const changed = await change(tx);
      return { result: changed, recorded: await this.record(tx, environmentId, events(changed), now) };
    });
    void this.dispatch(environmentId, recorded);
    return result;
  }

  /** Returns what to dispatch after commit (nothing when no endpoint wants these events). */
  async record(
    executor: DbExecutor,
    environmentId: string,
    events: NewWebhookEvent[],
    now: Date,
  ): Promise<RecordedEvents> {
    if (events.length === 0) return NO_WEBHOOK_EVENTS;
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
  ): Promise<RecordedEvents> {
    const endpoints = await this.endpoints.subscribed(environmentId, [...types], executor);
    if (endpoints.length === 0) return NO_WEBHOOK_EVENTS;
    const lease = this.queue.localLease(
      environmentId,
      endpoints.map((endpoint) => endpoint.id),
    );
    const { endpointIds, leased } = await this.deliveries.record(
      executor,
      environmentId,
      endpoints,
      build(),
      now,
      lease,
    );
    const endpointsById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    return {
      endpointIds,
      handOver: leased.map((row) => ({ ...row, endpoint: endpointsById.get(row.delivery.endpointId)! })),
    };
  }

  /**
   * Once the commit is done: its leased deliveries to this process's lanes, and a wake-up for every other
   * endpoint it gave deliveries. Not awaited by callers' answers: a failure leaves the deliveries to the sweeper.
   */
  async dispatch(environmentId: string, { endpointIds, handOver }: RecordedEvents): Promise<void> {
    if (handOver.length > 0 && !this.queue.handOver(environmentId, handOver)) {
      // The lanes stopped between the lease and the commit: any process's lane may send them now.
      await this.deliveries
        .releaseLeases(
          environmentId,
          handOver.map((send) => send.delivery.id),
        )
        .catch((error: unknown) =>
          this.logger.warn({ err: error, environmentId }, 'webhook leases not released; left to the webhook sweeper'),
        );
      return this.wake(environmentId, endpointIds);
    }
    const handedOver = new Set(handOver.map((send) => send.endpoint.id));
    await this.wake(
      environmentId,
      endpointIds.filter((id) => !handedOver.has(id)),
    );
  }

  /** Wakes the endpoints' lanes (a replay, a commit's deliveries). */
  async wake(environmentId: string, endpointIds: string[]): Promise<void> {
    if (endpointIds.length === 0) return;
    await this.queue.dispatch(environmentId, endpointIds).catch((error: unknown) => {
      this.logger.warn({ err: error, endpointIds }, 'webhook dispatch failed; left to the webhook sweeper');
    });
  }
}
