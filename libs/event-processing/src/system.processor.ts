import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { MessageStateService } from '#application';
import { MaintenanceRun } from './maintenance/maintenance-run.js';
import { QUEUE_NAMES, type JobPayloads } from './queue/job-catalogue.js';
import { QueueConsumer } from './queue/queue-consumer.js';

type SystemJob<N extends 'ping' | 'wake-snoozed-message' | 'maintenance'> = Job<JobPayloads[N], unknown, N>;

/**
 * Housekeeping jobs. `ping` proves a job makes the round trip through the configured backend;
 * `wake-snoozed-message` ends a snooze at its time; `maintenance` applies the retention and expires
 * Idempotency-Keys.
 */
@Processor(QUEUE_NAMES.system)
export class SystemProcessor extends QueueConsumer {
  constructor(
    private readonly messageState: MessageStateService,
    private readonly maintenance: MaintenanceRun,
  ) {
    super();
  }

  async process(
    job: SystemJob<'ping'> | SystemJob<'wake-snoozed-message'> | SystemJob<'maintenance'>,
  ): Promise<unknown> {
    if (job.name === 'wake-snoozed-message') {
      const { environmentId, messageId, until } = job.data;
      const row = await this.messageState.wake(environmentId, messageId, new Date(until));
      return { woken: row !== undefined };
    }
    if (job.name === 'maintenance') return this.maintenance.run();
    return job.name === 'ping' ? { pong: job.data.sentAt } : undefined;
  }

  /** A maintenance run stops after its current batch, so the worker's close does not wait for all of it. */
  override async beforeApplicationShutdown(): Promise<void> {
    this.maintenance.stop();
    await super.beforeApplicationShutdown();
  }
}
