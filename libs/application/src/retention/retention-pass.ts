import { Injectable } from '@nestjs/common';
import { AppConfig, type RetentionDays } from '#common';
import {
  ActivityPartitionRepository,
  PARTITIONED_TABLES,
  EnvironmentRepository,
  RetentionRepository,
  type RetainedTable,
  type RetentionBatch,
  type RetentionWindow,
} from '#dal';
import type { MaintenanceTally } from './maintenance-tally.js';
import { retentionOf } from './retention-settings.js';

/** Rows one batch looks at: each batch is one short transaction. */
const BATCH_ROWS = 1_000;

/** Partitions are created this many days ahead of the rows that will fill them. */
const PARTITION_DAYS_AHEAD = 7;

const DAY_MS = 86_400_000;

/** The start (UTC) of the day `days` before `now`: rows created before it are past a retention of `days`. */
const cutoffOf = (now: Date, days: number) => new Date(Math.floor((now.getTime() - days * DAY_MS) / DAY_MS) * DAY_MS);

/** One kind of expiry: the rows it removes, the setting that dates them, walked in batches. */
interface RetentionStep {
  /** The table whose environments the step walks. */
  table: RetainedTable;
  setting: keyof RetentionDays;
  removeBatch(window: RetentionWindow): Promise<RetentionBatch>;
}

/**
 * Applies the retention: its activity (notifications with their jobs and execution details, then the
 * trigger events no notification refers to any more) past its activity days, its messages past its
 * messages days, counted in whole UTC days. Weeks past every environment's retention are dropped as
 * partitions, so a row may outlive its retention by up to a week (its partition's last day); what is
 * left (an environment keeping its rows for less, rows outside the week partitions) is walked an
 * environment at a time, in batches. Pending work is never removed (see RetentionRepository and
 * ActivityPartitionRepository).
 * Stops between two batches once `signal` is aborted.
 */
@Injectable()
export class RetentionPass {
  private readonly steps: RetentionStep[];

  constructor(
    private readonly config: AppConfig,
    private readonly environments: EnvironmentRepository,
    private readonly retention: RetentionRepository,
    private readonly partitions: ActivityPartitionRepository,
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

  /** Each phase's time goes to the tally: creating partitions, dropping them, then one walk per table. */
  async run(now: Date, tally: MaintenanceTally, signal: AbortSignal): Promise<void> {
    const environments = await this.environments.listRetention();
    const overrides = new Map(environments.map((row) => [row.id, row]));
    await tally.timed('partition_create', () =>
      this.partitions.ensure(new Date(now.getTime() - DAY_MS), new Date(now.getTime() + PARTITION_DAYS_AHEAD * DAY_MS)),
    );
    // The longest retention any environment has, the deployment's included: whole weeks past it go.
    const longestOf = (setting: keyof RetentionDays) =>
      Math.max(
        this.config.retention[setting],
        ...environments.map((environment) => retentionOf(this.config.retention, environment)[setting]),
      );
    const longest: RetentionDays = { activityDays: longestOf('activityDays'), messagesDays: longestOf('messagesDays') };
    const kept = await tally.timed('partition_drop', () => this.dropExpiredPartitions(now, longest, tally, signal));
    // A deleted environment's rows expire by the deployment's settings.
    const noOverride = { retentionActivityDays: null, retentionMessagesDays: null };
    for (const step of this.steps) {
      await tally.timed(step.table, async () => {
        for (const environmentId of await this.retention.environmentsOf(step.table)) {
          if (signal.aborted) return;
          const days = retentionOf(this.config.retention, overrides.get(environmentId) ?? noOverride)[step.setting];
          let cutoff = cutoffOf(now, days);
          // Rows in a partition not yet expired wait for it, unless their environment keeps less than it.
          const oldestKept = kept.get(step.table);
          if (days >= longest[step.setting] && oldestKept && oldestKept < cutoff) cutoff = oldestKept;
          await this.walk(step, { environmentId, cutoff, now, limit: BATCH_ROWS }, tally, signal);
        }
      });
      if (signal.aborted) return;
    }
  }

  /** Removes one environment's expired rows of one step, a batch at a time. */
  private async walk(
    step: RetentionStep,
    first: RetentionWindow,
    tally: MaintenanceTally,
    signal: AbortSignal,
  ): Promise<void> {
    let window = first;
    while (!signal.aborted) {
      const batch = await step.removeBatch(window);
      tally.add(batch.removed);
      if (batch.examined < BATCH_ROWS || !batch.next) return;
      window = { ...window, after: batch.next };
    }
  }

  /**
   * Drops the partitions whose week is past the longest retention any environment has (the
   * deployment's included): notifications first, then their trigger events, jobs and execution
   * details, then messages. Returns, by table, where the oldest partition left begins.
   */
  private async dropExpiredPartitions(
    now: Date,
    longest: RetentionDays,
    tally: MaintenanceTally,
    signal: AbortSignal,
  ): Promise<Map<string, Date>> {
    const kept = new Map<string, Date>();
    for (const table of PARTITIONED_TABLES) {
      const cutoff = cutoffOf(now, longest[table === 'messages' ? 'messagesDays' : 'activityDays']);
      for (const partition of await this.partitions.partitionsOf(table)) {
        if (partition.end > cutoff) {
          if (!kept.has(table)) kept.set(table, partition.start);
          continue;
        }
        if (signal.aborted) return kept;
        tally.add(await this.partitions.drop({ partition, cutoff, now }));
      }
    }
    return kept;
  }
}
