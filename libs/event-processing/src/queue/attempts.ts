import type { Job } from 'bullmq';

/** Whether a failure now is the last one BullMQ will retry. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
