import { Injectable } from '@nestjs/common';
import { WebhookDispatch } from '#application';
import { JobQueue } from './job-queue.service.js';

/** The webhook outbox's door to the queue: one entry waking the endpoints one commit gave deliveries. */
@Injectable()
export class QueuedWebhookDispatch extends WebhookDispatch {
  constructor(private readonly queue: JobQueue) {
    super();
  }

  async dispatch(environmentId: string, endpointIds: string[]): Promise<void> {
    await this.queue.add('deliver-webhooks', { environmentId, endpointIds });
  }
}
