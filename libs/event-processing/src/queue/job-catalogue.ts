import type { JobsOptions } from 'bullmq';

/**
 * Every queue job the service knows: its queue, payload type and options. Payloads carry ids only;
 * the database row is the truth, so a lost or repeated queue entry is harmless.
 */
export const QUEUE_NAMES = {
  events: 'trigger-events',
  steps: 'step-jobs',
  system: 'system',
  webhooks: 'webhooks',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface JobPayloads {
  /**
   * Fan trigger events of one environment out to their recipients: the events one api batch (or one
   * recovery sweep) stored, so the queue's per-entry cost is paid once per batch, not per trigger.
   */
  'fan-out': { environmentId: string; eventIds: string[] };
  /**
   * Run step jobs of one environment: one (a delayed step, the recovery sweeper) or a batch (the
   * first steps of a fan-out chunk, the next steps of a finished batch), so the queue's per-entry
   * cost is paid once per batch. Each job row is claimed on its own: the row's status is the truth.
   * `recovered`: the recovery sweeper re-enqueued the jobs (a lost entry, or a worker that stopped
   * mid-run), so one of them may be what stopped it; the runner then claims and runs them one at a time.
   */
  'run-step': { environmentId: string; jobIds: string[]; recovered?: true };
  /**
   * End a message's snooze at `until` (ISO): it comes back as delivered then. Delayed until that time;
   * a message unsnoozed or snoozed again meanwhile no longer has this `until` and is left alone.
   */
  'wake-snoozed-message': { environmentId: string; messageId: string; until: string };
  /**
   * The housekeeping of the database: the retention, then expired Idempotency-Keys. Repeated every
   * MAINTENANCE_INTERVAL_MINUTES by a job scheduler every worker registers (see MaintenanceSchedule).
   */
  maintenance: Record<string, never>;
  /**
   * Wakes the lanes of one environment's endpoints: those a change just gave deliveries (one entry per
   * committed batch), those with a retry due (delayed), those the sweeper found overdue. The rows say
   * what is due. Entries queued by earlier versions name their deliveries instead of the endpoints.
   */
  'deliver-webhooks': { environmentId: string; endpointIds?: string[]; deliveryIds?: string[] };
  /** Round trip used by health checks and tests to prove the queue works. */
  ping: { sentAt: string };
}
export type JobName = keyof JobPayloads;

/** The maintenance job's name: also its scheduler's id and its status row's name. */
export const MAINTENANCE_JOB = 'maintenance' satisfies JobName;

const retried: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 1_000 },
  removeOnFail: { count: 10_000 },
};

export const JOB_DEFINITIONS: { [N in JobName]: { queue: QueueName; options: JobsOptions } } = {
  'fan-out': { queue: QUEUE_NAMES.events, options: retried },
  'run-step': { queue: QUEUE_NAMES.steps, options: retried },
  'wake-snoozed-message': { queue: QUEUE_NAMES.system, options: retried },
  // A failed run is tried again a minute, then two minutes later; what its committed batches removed
  // stays removed, so the retry carries on from there.
  maintenance: {
    queue: QUEUE_NAMES.system,
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 60_000 },
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
    },
  },
  // The delivery rows hold the retry schedule; a queue retry only covers a failure before any send.
  'deliver-webhooks': { queue: QUEUE_NAMES.webhooks, options: retried },
  ping: { queue: QUEUE_NAMES.system, options: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
};
