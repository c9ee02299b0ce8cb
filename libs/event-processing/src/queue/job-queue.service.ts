import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import type { JobsOptions, Queue } from 'bullmq';
import { JOB_DEFINITIONS, QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from './job-catalogue.js';

export interface JobToAdd<N extends JobName> {
  name: N;
  data: JobPayloads[N];
  options?: JobsOptions;
}

/** The typed door to the queues: callers name a job of the catalogue, never a raw queue. */
@Injectable()
export class JobQueue {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue(QUEUE_NAMES.events) events: Queue,
    @InjectQueue(QUEUE_NAMES.steps) steps: Queue,
    @InjectQueue(QUEUE_NAMES.system) system: Queue,
    @InjectQueue(QUEUE_NAMES.webhooks) webhooks: Queue,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.queues = {
      [QUEUE_NAMES.events]: events,
      [QUEUE_NAMES.steps]: steps,
      [QUEUE_NAMES.system]: system,
      [QUEUE_NAMES.webhooks]: webhooks,
    };
    // Connection errors are reported here and retried by BullMQ; unobserved they would go to stderr raw.
    for (const queue of Object.values(this.queues)) {
      queue.on('error', (error) => logger.warn({ queue: queue.name, err: error.message }, 'queue connection error'));
    }
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  async add<N extends JobName>(name: N, data: JobPayloads[N], options?: JobsOptions) {
    const definition = JOB_DEFINITIONS[name];
    return this.queues[definition.queue].add(name, data, { ...definition.options, ...options });
  }

  /** One round trip per queue for any number of jobs of one name. */
  async addBulk<N extends JobName>(name: N, jobs: { data: JobPayloads[N]; options?: JobsOptions }[]) {
    if (jobs.length === 0) return [];
    const definition = JOB_DEFINITIONS[name];
    return this.queues[definition.queue].addBulk(
      jobs.map((job) => ({ name, data: job.data, opts: { ...definition.options, ...job.options } })),
    );
  }

  /**
   * Creates or updates the job scheduler that adds `name` every `everyMs`, with the catalogue's
   * options. Its id is the job's name: every process registering it registers the same one.
   */
  async schedule<N extends JobName>(name: N, everyMs: number, data: JobPayloads[N]): Promise<void> {
    const definition = JOB_DEFINITIONS[name];
    await this.queues[definition.queue].upsertJobScheduler(
      name,
      { every: everyMs },
      { name, data, opts: definition.options },
    );
  }

  /** Counts of waiting/active/delayed jobs per queue, for health and metrics. */
  async depth(): Promise<Record<string, Record<string, number>>> {
    const entries = await Promise.all(
      Object.values(this.queues).map(
        async (queue) => [queue.name, await queue.getJobCounts('waiting', 'active', 'delayed', 'failed')] as const,
      ),
    );
    return Object.fromEntries(entries);
  }
}
