import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { durationMs, MAX_DEFER_MS, nextTimedRelease } from '#application';
import {
  DATABASE,
  JobRepository,
  NotificationRepository,
  type Database,
  type DbExecutor,
  type DigestKey,
  type JobDigest,
  type JobResult,
} from '#dal';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import type { StepHandler } from './step-handler.js';

/**
 * Digest steps. The first event of a (subscriber, workflow, step, digestValue) opens a window (the job
 * waits as `delayed`); later events in the window are `merged` into it (their notifications point at
 * the master's); when the window closes the master's following steps run with every merged event.
 * The job keeps no copy of those events' payloads: the steps after it read them through the merged
 * notifications (StepContextLoader). Opening and merging happen under one advisory lock per key, so
 * two events never both open a window.
 */
@Injectable()
export class DigestStep implements StepHandler {
  readonly type = 'digest';
  readonly claims = true;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly jobs: JobRepository,
    private readonly notifications: NotificationRepository,
  ) {}

  private key(context: StepContext): DigestKey {
    const { job } = context;
    return {
      subscriberId: job.subscriberId,
      workflowId: job.workflowId,
      stepIndex: job.stepIndex,
      digestValue: job.digest?.digestValue ?? '',
    };
  }

  private async lock(tx: DbExecutor, context: StepContext): Promise<void> {
    const key = this.key(context);
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`digest:${context.job.environmentId}:${key.subscriberId}:${key.workflowId}:${key.stepIndex}:${key.digestValue}`}))`,
    );
  }

  async start(context: StepContext): Promise<StepOutcome> {
    const { job, now } = context;
    const digest: JobDigest = job.digest ?? {};
    const env = job.environmentId;
    // Later events of the key look back this far for this one: the retention keeps it that long.
    let kept: JobResult | undefined;
    if (digest.type === 'backoff' || digest.backoff) {
      const backoffMs = durationMs(digest.backoffAmount, digest.backoffUnit) ?? 0;
      kept = { retainUntil: new Date(job.createdAt.getTime() + backoffMs).toISOString() };
      const recent =
        backoffMs > 0 &&
        (await this.jobs.hasRecentDigest(env, this.key(context), job.id, new Date(now.getTime() - backoffMs)));
      if (!recent) {
        record(context, {
          status: 'Success',
          detail: 'Digest was skipped, first backoff event: the next steps run now',
        });
        return outcome.skipped({ result: kept });
      }
    }
    const releaseAt = this.windowEnd(context, digest);
    if (!releaseAt) {
      record(context, {
        status: 'Failed',
        detail: 'Invalid digest configuration: amount and unit (or timed settings) are required',
      });
      return outcome.failed('Invalid digest configuration');
    }
    if (releaseAt.getTime() - now.getTime() > MAX_DEFER_MS) {
      record(context, {
        status: 'Failed',
        detail: 'Defer duration limit exceeded: a digest may wait at most 180 days',
      });
      return outcome.failed('Defer duration limit exceeded');
    }
    return this.db.transaction(async (tx) => {
      await this.lock(tx, context);
      const open = await this.jobs.findOpenDigest(env, this.key(context), tx);
      if (kept) await this.jobs.update(env, job.id, { result: kept }, tx);
      if (open && open.id !== job.id) {
        const rest = await this.jobs.findPendingAfter(env, job.notificationId, job.stepIndex, tx);
        await this.jobs.transition(
          env,
          [job.id, ...rest.map((other) => other.id)],
          ['running', 'pending'],
          'merged',
          tx,
        );
        await this.notifications.markDigested(env, [job.notificationId], open.notificationId, tx);
        record(context, { status: 'Success', detail: `Digest was merged with other digest (job ${open.id})` });
        return { status: 'merged', saved: true } satisfies StepOutcome;
      }
      await this.jobs.update(env, job.id, { status: 'delayed', runAt: releaseAt }, tx);
      record(context, { status: 'Pending', detail: `Digest window open until ${releaseAt.toISOString()}` });
      return outcome.delayed(releaseAt, { saved: true });
    });
  }

  /**
   * The window closed (the job is no longer `delayed`, so no event merges into it any more): count
   * this event and those merged into it. The lock waits for a merge still committing.
   */
  async resume(context: StepContext): Promise<StepOutcome> {
    const { job } = context;
    const merged = await this.db.transaction(async (tx) => {
      await this.lock(tx, context);
      return this.notifications.countDigested(job.environmentId, job.notificationId, tx);
    });
    const events = merged + 1;
    record(context, {
      status: 'Success',
      detail: `Digest triggered events: ${events} event${events === 1 ? '' : 's'}`,
    });
    return outcome.completed();
  }

  private windowEnd(context: StepContext, digest: JobDigest): Date | undefined {
    if (digest.type === 'timed') {
      return nextTimedRelease(
        { amount: digest.amount, unit: digest.unit, timed: digest.timed },
        context.subscriber?.timezone,
        context.now,
      );
    }
    const ms = durationMs(digest.amount, digest.unit);
    return ms === undefined ? undefined : new Date(context.now.getTime() + ms);
  }
}
