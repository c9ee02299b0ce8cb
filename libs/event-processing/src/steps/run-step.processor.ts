import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { isFinalAttempt } from '../queue/attempts.js';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { StepRunner } from './step-runner.service.js';

@Processor(QUEUE_NAMES.steps)
export class RunStepProcessor extends QueueConsumer {
  constructor(private readonly runner: StepRunner) {
    super();
  }

  async process(job: Job<JobPayloads['run-step']>): Promise<void> {
    await this.runner.runMany(job.data.environmentId, job.data.jobIds, isFinalAttempt(job));
  }
}
