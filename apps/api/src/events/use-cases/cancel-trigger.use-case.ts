import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, ExecutionDetailRepository, JobRepository, TriggerEventRepository, type Database } from '#dal';
import { newId } from '#common';
import type { AuthContext } from '../../auth/auth-context.js';

/**
 * DELETE /v1/events/trigger/{transactionId}: cancels the jobs of the transaction that have not run
 * yet. Their queue entries stay; the step processor finds them canceled and does nothing. An event
 * not yet fanned out (or still fanning out) is canceled first, so the fan-out creates nothing more;
 * a chunk it is writing meanwhile commits before the event row changes, so its jobs are canceled here.
 * The jobs and their details change in one transaction: a subscriber's delete, which erases its jobs
 * with their details, waits for it and finds both.
 */
@Injectable()
export class CancelTriggerUseCase {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly events: TriggerEventRepository,
    private readonly jobs: JobRepository,
    private readonly details: ExecutionDetailRepository,
  ) {}

  async execute(auth: AuthContext, transactionId: string): Promise<boolean> {
    const eventCanceled = await this.events.cancelByTransaction(auth.environmentId, transactionId);
    const canceled = await this.db.transaction(async (tx) => {
      const rows = await this.jobs.cancelByTransaction(auth.environmentId, transactionId, tx);
      await this.details.insertMany(
        rows.map((job) => ({
          id: newId(),
          environmentId: job.environmentId,
          organizationId: job.organizationId,
          jobId: job.id,
          notificationId: job.notificationId,
          subscriberId: job.subscriberId,
          status: 'Success',
          source: 'Internal',
          detail: 'Step canceled: the trigger was canceled through the API',
        })),
        tx,
      );
      return rows;
    });
    return eventCanceled || canceled.length > 0;
  }
}
