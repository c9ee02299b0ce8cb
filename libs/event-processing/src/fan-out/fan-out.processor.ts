import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { TriggerEventRepository } from '#dal';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { EnvironmentFairConsumer } from '../queue/environment-fair-consumer.js';
import { isFinalAttempt } from '../queue/queue-consumer.js';
import { FanOutService } from './fan-out.service.js';

@Processor(QUEUE_NAMES.events)
export class FanOutProcessor extends EnvironmentFairConsumer<JobPayloads['fan-out']> {
  constructor(
    private readonly fanOut: FanOutService,
    private readonly events: TriggerEventRepository,
  ) {
    super();
  }

  /**
   * One event that fails does not stop the others. The queue's retry runs the batch again, where
   * events already fanned out are skipped (their status is no longer received).
   */
  protected async handle(job: Job<JobPayloads['fan-out']>): Promise<void> {
    const { environmentId, eventIds } = job.data;
    const failures = await this.fanOut
      .runMany(environmentId, eventIds)
      .catch((error: unknown) => eventIds.map((eventId) => ({ eventId, error })));
    if (failures.length === 0) return;
    // The last attempt records the failure on each event; earlier ones let BullMQ retry.
    if (isFinalAttempt(job)) {
      await Promise.all(
        failures.map(({ eventId, error }) =>
          this.events.setStatus(
            environmentId,
            eventId,
            'failed',
            error instanceof Error ? error.message : String(error),
          ),
        ),
      );
    }
    throw failures[0].error;
  }
}
