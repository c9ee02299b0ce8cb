import type { ExecutionSource, ExecutionStatus, JobStatus } from '#common';
import type { JobResult, NewMessageRow, ProviderRetry } from '#dal';

/** One execution-detail sentence a step recorded. */
export interface StepDetail {
  status: ExecutionStatus;
  detail: string;
  source?: ExecutionSource;
  providerId?: string | null;
  raw?: string | null;
  /** A provider call repeated on the same integration after a retryable failure. */
  isRetry?: boolean;
}

/**
 * What a step decided. `delayed` waits until runAt (delay, digest window, schedule hold); `saved`
 * means the step already wrote its job row inside its own transaction (digest).
 */
export interface StepOutcome {
  status: Extract<JobStatus, 'completed' | 'failed' | 'canceled' | 'skipped' | 'merged' | 'delayed'>;
  runAt?: Date;
  error?: string;
  providerId?: string | null;
  saved?: boolean;
  /** The provider call the job makes when it runs again (a retryable failure's backoff). */
  providerRetry?: ProviderRetry;
  /** Message rows, written in the same transaction as the job's outcome. */
  messages?: NewMessageRow[];
  /** Kept on the job for the steps after it (`steps.<stepId>.response` in their templates). */
  result?: JobResult;
  /** The run stops here: the steps after it that have not started are skipped, with this detail. */
  endsRun?: string;
}

export const outcome = {
  completed: (extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'completed', ...extra }),
  failed: (error: string, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'failed', error, ...extra }),
  canceled: (): StepOutcome => ({ status: 'canceled' }),
  skipped: (extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'skipped', ...extra }),
  delayed: (runAt: Date, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'delayed', runAt, ...extra }),
  /** A retryable provider failure: the job waits out the backoff and runs again, without holding a worker. */
  retry: (
    now: Date,
    deliveryKey: string,
    next: { integrationId: string; attempt: number; delayMs: number },
    extra: Partial<StepOutcome> = {},
  ): StepOutcome => ({
    status: 'delayed',
    runAt: new Date(now.getTime() + next.delayMs),
    providerRetry: { deliveryKey, integrationId: next.integrationId, attempt: next.attempt },
    ...extra,
  }),
};
