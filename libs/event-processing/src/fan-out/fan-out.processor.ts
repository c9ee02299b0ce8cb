import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { TriggerEventRepository } from '#dal';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { isFinalAttempt } from '../queue/attempts.js';
import { FanOutService } from './fan-out.service.js';

@Processor(QUEUE_NAMES.events)
export class FanOutProcessor extends QueueConsumer {
  constructor(
    private readonly fanOut: FanOutService,
    private readonly events: TriggerEventRepository,
  ) {
    super();
  }

  async process(job: Job<JobPayloads['fan-out']>): Promise<void> {
    const { environmentId, eventId } = job.data;
    try {
      await this.fanOut.run(environmentId, eventId);
    } catch (error) {
      // The last attempt records the failure on the event; earlier ones let BullMQ retry.
      if (isFinalAttempt(job)) await this.events.setStatus(environmentId, eventId, 'failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
}
