import type { ExecutionSource, ExecutionStatus, JobStatus } from '#common';
import type { NewMessageRow } from '#dal';

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
  /** Message rows written in the same transaction as the job's final status (in_app: nothing is sent outside). */
  messages?: NewMessageRow[];
}

export const outcome = {
  completed: (extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'completed', ...extra }),
  failed: (error: string, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'failed', error, ...extra }),
  canceled: (): StepOutcome => ({ status: 'canceled' }),
  skipped: (): StepOutcome => ({ status: 'skipped' }),
  delayed: (runAt: Date, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'delayed', runAt, ...extra }),
};
