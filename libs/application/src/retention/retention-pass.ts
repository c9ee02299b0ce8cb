import { Injectable } from '@nestjs/common';
import { AppConfig, type RetentionDays } from '#common';
import {
  EnvironmentRepository,
  RetentionRepository,
  type RetainedTable,
  type RetentionBatch,
  type RetentionWindow,
} from '#dal';
import type { RemovedRowsTally } from './removed-rows.js';
import { retentionOf } from './retention-settings.js';

/** Rows one batch looks at: each batch is one short transaction. */
const BATCH_ROWS = 1_000;

/**
 * One kind of expiry: the rows it removes, the setting that dates them. Each step here walks its
 * table in batches; one could as well drop whole partitions past the cutoff.
 */
interface RetentionStep {
  /** The table whose environments the step walks. */
  table: RetainedTable;
  setting: keyof RetentionDays;
  removeBatch(window: RetentionWindow): Promise<RetentionBatch>;
}

/**
 * Applies the retention to every environment with rows: its activity (notifications with their jobs
 * and execution details, then the trigger events no notification refers to any more) past its
 * activity days, its messages past its messages days. Pending work is never removed (see
 * RetentionRepository). Stops between two batches once `signal` is aborted.
 */
@Injectable()
export class RetentionPass {
  private readonly steps: RetentionStep[];

  constructor(
    private readonly config: AppConfig,
    private readonly environments: EnvironmentRepository,
    private readonly retention: RetentionRepository,
  ) {
    // In this order: the trigger events go once their notifications are gone.
    this.steps = [
      { table: 'notifications', setting: 'activityDays', removeBatch: (window) => retention.removeActivity(window) },
      {
        table: 'trigger_events',
        setting: 'activityDays',
        removeBatch: (window) => retention.removeTriggerEvents(window),
      },
      { table: 'messages', setting: 'messagesDays', removeBatch: (window) => retention.removeMessages(window) },
      {
        table: 'webhook_events',
        setting: 'activityDays',
        removeBatch: (window) => retention.removeWebhookEvents(window),
      },
    ];
  }

  async run(now: Date, tally: RemovedRowsTally, signal: AbortSignal): Promise<void> {
    const overrides = new Map((await this.environments.listRetention()).map((row) => [row.id, row]));
    // A deleted environment's rows expire by the deployment's settings.
    const noOverride = { retentionActivityDays: null, retentionMessagesDays: null };
    for (const step of this.steps) {
      for (const environmentId of await this.retention.environmentsOf(step.table)) {
        const days = retentionOf(this.config.retention, overrides.get(environmentId) ?? noOverride)[step.setting];
        const cutoff = new Date(now.getTime() - days * 86_400_000);
        let window: RetentionWindow = { environmentId, cutoff, now, limit: BATCH_ROWS };
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
