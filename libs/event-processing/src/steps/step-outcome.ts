import type { ExecutionSource, ExecutionStatus, JobStatus } from '#common';

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
}

export const outcome = {
  completed: (extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'completed', ...extra }),
  failed: (error: string, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'failed', error, ...extra }),
  canceled: (): StepOutcome => ({ status: 'canceled' }),
  skipped: (): StepOutcome => ({ status: 'skipped' }),
  delayed: (runAt: Date, extra: Partial<StepOutcome> = {}): StepOutcome => ({ status: 'delayed', runAt, ...extra }),
};
