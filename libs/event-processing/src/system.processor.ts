import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { MessageStateService } from '#application';
import { QUEUE_NAMES, type JobPayloads } from './queue/job-catalogue.js';
import { QueueConsumer } from './queue/queue-consumer.js';

/**
 * Housekeeping jobs. `ping` proves a job makes the round trip through the configured backend;
 * `wake-snoozed-message` ends a snooze at its time.
 */
@Processor(QUEUE_NAMES.system)
export class SystemProcessor extends QueueConsumer {
  constructor(private readonly messageState: MessageStateService) {
    super();
  }

  async process(job: Job<JobPayloads['ping']> | Job<JobPayloads['wake-snoozed-message']>): Promise<unknown> {
    if (job.name === 'wake-snoozed-message') {
      const { environmentId, messageId, until } = job.data as JobPayloads['wake-snoozed-message'];
      const row = await this.messageState.wake(environmentId, messageId, new Date(until));
      return { woken: row !== undefined };
    }
    return job.name === 'ping' ? { pong: (job.data as JobPayloads['ping']).sentAt } : undefined;
  }
}
