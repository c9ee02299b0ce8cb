import { Injectable } from '@nestjs/common';
import { WebhookDispatch } from '#application';
import { JobQueue } from './job-queue.service.js';

/** The endpoint lanes of this process; false when they take no wake-up (the worker is stopping). */
export interface LocalWebhookLanes {
  wake(environmentId: string, endpointIds: string[]): boolean;
}

/**
 * The webhook outbox's door to the lanes. In a process that runs them (the worker role), a commit
 * wakes its endpoints' lanes here, without a queue entry: the deliveries are rows already, so a
 * process that dies before sending leaves them to the webhook sweeper, as a lost entry would. A
 * process without lanes (the api role) queues one entry waking the endpoints the commit gave
 * deliveries, for whichever worker takes it.
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
}
