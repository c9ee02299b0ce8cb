import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QUEUE_NAMES, type JobPayloads } from './queue/job-catalogue.js';
import { QueueConsumer } from './queue/queue-consumer.js';

/** Housekeeping jobs. `ping` proves a job makes the round trip through the configured backend. */
@Processor(QUEUE_NAMES.system)
export class SystemProcessor extends QueueConsumer {
  process(job: Job<JobPayloads['ping']>): Promise<unknown> {
    return Promise.resolve(job.name === 'ping' ? { pong: job.data.sentAt } : undefined);
  }
}
