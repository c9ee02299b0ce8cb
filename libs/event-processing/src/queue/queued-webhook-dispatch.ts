import { Injectable } from '@nestjs/common';
import { WebhookDispatch } from '#application';
import type { DeliveryLease, WebhookSend } from '#dal';
import { JobQueue } from './job-queue.service.js';

/** The endpoint lanes of this process; each answer says no (false, undefined) once the worker is stopping. */
export interface LocalWebhookLanes {
  wake(environmentId: string, endpointIds: string[]): boolean;
  lease(environmentId: string, endpointIds: string[]): DeliveryLease | undefined;
  handOver(environmentId: string, sends: WebhookSend[]): boolean;
}

/**
 * The webhook outbox's door to the lanes. In a process that runs them (the worker role), a commit's
 * deliveries go to its lanes here, without a queue entry: they are rows already, written leased to
 * this process and handed over from memory, or woken to be claimed; a process that dies before
 * sending leaves them to the webhook sweeper, as a lost entry would. A process without lanes (the
 * api role) queues one entry waking the endpoints the commit gave deliveries, for whichever worker takes it.
 */
@Injectable()
export class QueuedWebhookDispatch extends WebhookDispatch {
  private localLanes?: LocalWebhookLanes;

  constructor(private readonly queue: JobQueue) {
    super();
  }

  /** Set by the webhook processor while it runs in this process; undefined once it stops. */
  useLocalLanes(lanes: LocalWebhookLanes | undefined): void {
    this.localLanes = lanes;
  }

  async dispatch(environmentId: string, endpointIds: string[]): Promise<void> {
    if (this.localLanes?.wake(environmentId, endpointIds)) return;
    await this.queue.add('deliver-webhooks', { environmentId, endpointIds });
  }

  localLease(environmentId: string, endpointIds: string[]): DeliveryLease | undefined {
    return this.localLanes?.lease(environmentId, endpointIds);
  }

  handOver(environmentId: string, sends: WebhookSend[]): boolean {
    return this.localLanes?.handOver(environmentId, sends) ?? false;
  }
}
