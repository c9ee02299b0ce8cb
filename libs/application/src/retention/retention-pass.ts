import { Injectable } from '@nestjs/common';
import { AppConfig, type RetentionDays } from '#common';
import { EnvironmentRepository, RetentionRepository, type RetentionBatch, type RetentionWindow } from '#dal';
import type { RemovedRowsTally } from './removed-rows.js';
import { retentionOf } from './retention-settings.js';

/** Rows one batch looks at: each batch is one short transaction. */
const BATCH_ROWS = 1_000;

/**
 * One kind of expiry: the rows it removes, the setting that dates them. A whole-table walk in
 * batches today; a step could as well drop whole partitions past the cutoff.
 */
interface RetentionStep {
  setting: keyof RetentionDays;
  removeBatch(window: RetentionWindow): Promise<RetentionBatch>;
}

/**
 * Applies the retention to every environment: its activity (notifications with their jobs and
 * execution details, then the trigger events no notification refers to any more) past its activity
 * days, its messages past its messages days. Pending work is never removed (see RetentionRepository).
 * Stops between two batches once `signal` is aborted.
 */
@Injectable()
export class RetentionPass {
  private readonly steps: RetentionStep[];

  constructor(
    private readonly config: AppConfig,
    private readonly environments: EnvironmentRepository,
    retention: RetentionRepository,
  ) {
    this.steps = [
      { setting: 'activityDays', removeBatch: (window) => retention.removeActivity(window) },
      { setting: 'activityDays', removeBatch: (window) => retention.removeTriggerEvents(window) },
      { setting: 'messagesDays', removeBatch: (window) => retention.removeMessages(window) },
    ];
  }

  async run(now: Date, tally: RemovedRowsTally, signal: AbortSignal): Promise<void> {
    for (const environment of await this.environments.listRetention()) {
      const days = retentionOf(this.config.retention, environment);
      for (const step of this.steps) {
        const cutoff = new Date(now.getTime() - days[step.setting] * 86_400_000);
        let window: RetentionWindow = { environmentId: environment.id, cutoff, now, limit: BATCH_ROWS };
        for (;;) {
          if (signal.aborted) return;
          const batch = await step.removeBatch(window);
          tally.add(batch.removed);
          if (batch.examined < BATCH_ROWS || !batch.next) break;
          window = { ...window, after: batch.next };
        }
      }
    }
  }
}
