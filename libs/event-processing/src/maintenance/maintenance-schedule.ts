import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, LOGGER } from '#common';
import { MAINTENANCE_JOB } from '../queue/job-catalogue.js';
import { JobQueue } from '../queue/job-queue.service.js';

/**
 * Every worker registers the maintenance job's scheduler at boot: one scheduler per queue whoever
 * registers it (its id is the job's name), which adds one job per interval for all workers. The
 * queue keeps it, so a worker that fails to register it still gets the runs one registered before;
 * an interval changed in the config applies from the next boot that registers it.
 */
@Injectable()
export class MaintenanceSchedule implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.queue.schedule(MAINTENANCE_JOB, this.config.maintenanceIntervalMinutes * 60_000, {});
    } catch (error) {
      this.logger.error({ err: error }, 'maintenance job not scheduled by this worker');
    }
  }
}
