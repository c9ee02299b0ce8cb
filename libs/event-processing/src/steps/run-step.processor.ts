import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import { isFinalAttempt } from '../queue/attempts.js';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { StepRunner } from './step-runner.service.js';

@Processor(QUEUE_NAMES.steps)
export class RunStepProcessor extends QueueConsumer {
  constructor(
    private readonly runner: StepRunner,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    super();
  }

  async process(job: Job<JobPayloads['run-step']>): Promise<void> {
    try {
      await this.runner.run(job.data.environmentId, job.data.jobId, isFinalAttempt(job));
    } catch (error) {
      this.log.warn({ err: error, jobId: job.data.jobId, attempt: job.attemptsMade + 1 }, 'step job failed; the queue retries it');
      throw error;
    }
  }
}
