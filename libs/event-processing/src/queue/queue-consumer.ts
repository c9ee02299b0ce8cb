import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, jobDuration, jobFailures, LOGGER } from '#common';
import { QUEUE_BACKEND } from './queue.module.js';
import type { QueueBackend } from './queue-backend.js';

/**
 * How long a worker waits to fetch again after its connection failed (BullMQ's default is 15 s). Its
 * close waits for that pause too, so it must stay well inside the shutdown deadline after an outage.
 */
const RETRY_AFTER_CONNECTION_ERROR_MS = 2_000;

/**
 * Base of every processor: applies the runtime settings that @Processor's static options cannot
 * carry (concurrency from config; a short poll on embedded PGlite, whose socket multiplexer cannot
 * deliver LISTEN/NOTIFY wake-ups to an idle connection).
 */
export abstract class QueueConsumer extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  @Inject(AppConfig) protected readonly config: AppConfig;
  @Inject(QUEUE_BACKEND) protected readonly backend: QueueBackend;
  @Inject(LOGGER) protected readonly logger: Logger;

  protected concurrency(): number {
    return this.config.workerConcurrency;
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.concurrency();
    this.worker.on('error', (error) =>
      this.logger.warn({ queue: this.worker.name, err: error.message }, 'worker connection error'),
    );
    this.worker.on('completed', (job) => {
      if (job.processedOn && job.finishedOn)
        jobDuration.observe({ name: job.name, outcome: 'completed' }, (job.finishedOn - job.processedOn) / 1000);
    });
    this.worker.on('failed', (job) => {
      if (!job) return;
      jobFailures.inc({ name: job.name });
      if (job.processedOn && job.finishedOn)
        jobDuration.observe({ name: job.name, outcome: 'failed' }, (job.finishedOn - job.processedOn) / 1000);
    });
    // drainDelay bounds the wait of an empty queue; the backend bounds the wait for a delayed entry.
    if (this.backend.pollSeconds) this.worker.opts.drainDelay = this.backend.pollSeconds;
    this.worker.opts.runRetryDelay = RETRY_AFTER_CONNECTION_ERROR_MS;
  }

  /**
   * Lets the running jobs finish while the queues are still open. @nestjs/bullmq closes a module's
   * queues and the processors' workers in the same shutdown phase, in no fixed order: a job still
   * enqueueing its next steps into an already closed queue then waits forever on the PostgreSQL
   * backend (Redis rejects it), and with it the worker's close and the whole shutdown.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }
}

/** Whether a failure now is the last one BullMQ will retry. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
