import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { durationMs, MAX_DEFER_MS } from '#application';
import { DATABASE, JobRepository, type Database } from '#dal';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { readPath } from '../read-path.js';
import type { StepHandler } from './step-handler.js';

export const THROTTLED_RUN = 'Step skipped: the run was throttled by an earlier throttle step';

export interface ThrottleWindow {
  ms: number;
  /** "1 hours", as the metadata or payload said it. */
  label: string;
}

/** The window: amount × unit (fixed), or the { amount, unit } at payload[dynamicKey] (dynamic). */
export function throttleWindow(
  metadata: Record<string, unknown>,
  payload: Record<string, unknown>,
): ThrottleWindow | { error: string } {
  let source: unknown = metadata;
  let where = 'amount and unit';
  if (metadata.type === 'dynamic') {
    const path = typeof metadata.dynamicKey === 'string' ? metadata.dynamicKey : '';
    source = readPath(payload, path);
    where = `payload.${path}`;
  }
  const { amount, unit } = (source ?? {}) as { amount?: unknown; unit?: unknown };
  const ms = durationMs(amount, unit);
  if (ms === undefined || ms <= 0)
    return { error: `Invalid throttle window: ${where} must give a positive amount and a time unit` };
  if (ms > MAX_DEFER_MS) return { error: `Invalid throttle window: ${where} is longer than 180 days` };
  return { ms, label: `${String(amount)} ${String(unit)}` };
}

/** The counter's key: the payload value at throttleKey (JSON unless a string), '' without one. */
export function throttleKeyOf(metadata: Record<string, unknown>, payload: Record<string, unknown>): string {
  if (typeof metadata.throttleKey !== 'string' || !metadata.throttleKey) return '';
  const value = readPath(payload, metadata.throttleKey);
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const thresholdOf = (metadata: Record<string, unknown>) =>
  typeof metadata.threshold === 'number' && metadata.threshold >= 1 ? Math.floor(metadata.threshold) : 1;

/**
 * Lets the run through when fewer than `threshold` runs passed in the window; otherwise skips the rest
 * of it. A pass counts for the window it was counted in: the retention keeps it that long.
 */
export function throttleOutcome(
  context: StepContext,
  passed: number,
  threshold: number,
  window: ThrottleWindow,
  key: string,
): StepOutcome {
  const counted = `${passed} of ${threshold} runs in the last ${window.label}`;
  const of = `for this subscriber${key ? ` and throttle key ${key}` : ''}`;
  if (passed < threshold) {
    record(context, { status: 'Success', detail: `Throttle passed: ${counted} had passed ${of}` });
    const retainUntil = new Date(context.now.getTime() + window.ms).toISOString();
    return outcome.completed({ result: { throttleKey: key, passedAt: context.now.toISOString(), retainUntil } });
  }
  record(context, {
    status: 'Warning',
    detail: `Throttled: ${counted} already passed ${of}; the following steps are skipped`,
  });
  return outcome.skipped({ endsRun: THROTTLED_RUN });
}

/**
 * Throttle steps: at most `threshold` runs of the step per window, per subscriber and throttle key.
 * The count is the step's other jobs marked as passed (result.passedAt) within the window. Counting
 * and marking happen in one transaction under a transaction advisory lock on the counter's key, so two
 * runs of one counter (one batch, or two workers) take turns: the second counts the first's mark. A
 * row lock has no row to hold before the first pass, and a counter table would be a second record
 * of what the jobs already say. The mark is written before the job's final status, so a worker
 * stopping in between leaves the pass counted and the job, run again, passes again.
 */
@Injectable()
export class ThrottleStep implements StepHandler {
  readonly type = 'throttle';
  readonly claims = true;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly jobs: JobRepository,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const { job, now } = context;
    const metadata = job.step.metadata ?? {};
    const payload = context.payload ?? {};
    const window = throttleWindow(metadata, payload);
    if ('error' in window) {
      record(context, { status: 'Failed', source: 'Payload', detail: window.error });
      return outcome.failed(window.error, { endsRun: THROTTLED_RUN });
    }
    const key = throttleKeyOf(metadata, payload);
    if (job.result?.passedAt) {
      record(context, { status: 'Success', detail: 'Throttle passed in an earlier run of this step' });
      return outcome.completed();
    }
    const threshold = thresholdOf(metadata);
    const counter = {
      subscriberId: job.subscriberId,
      workflowId: job.workflowId,
      stepId: job.step._id,
      throttleKey: key,
    };
    return this.db.transaction(async (tx) => {
      const lockKey = `throttle:${job.environmentId}:${counter.workflowId}:${counter.stepId}:${counter.subscriberId}:${key}`;
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${lockKey}))`);
      const since = new Date(now.getTime() - window.ms);
      const passed = await this.jobs.countThrottlePasses(job.environmentId, counter, job.id, since, threshold, tx);
      const result = throttleOutcome(context, passed, threshold, window, key);
      if (result.result) await this.jobs.update(job.environmentId, job.id, { result: result.result }, tx);
      return result;
    });
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
