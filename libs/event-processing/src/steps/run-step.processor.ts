import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { isFinalAttempt } from '../queue/queue-consumer.js';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { EnvironmentFairConsumer } from '../queue/environment-fair-consumer.js';
import { StepRunner } from './step-runner.service.js';

@Processor(QUEUE_NAMES.steps)
export class RunStepProcessor extends EnvironmentFairConsumer<JobPayloads['run-step']> {
  constructor(private readonly runner: StepRunner) {
    super();
  }

  protected async handle(job: Job<JobPayloads['run-step']>): Promise<void> {
    // Re-enqueued by the recovery sweeper, or handed out again after its worker stopped (BullMQ's
    // stalled check): one of its jobs may be what stopped that worker.
    const suspect = job.data.recovered === true || job.stalledCounter > 0;
    await this.runner.runMany(job.data.environmentId, job.data.jobIds, { finalAttempt: isFinalAttempt(job), suspect });
  }
}
