import { Inject, Injectable } from '@nestjs/common';
import type pg from 'pg';
import type { Logger } from 'pino';
import { Clock, LOGGER } from '#common';
import { IdempotencyKeyExpiry, MaintenanceTally, RetentionPass, type MaintenanceProgress } from '#application';
import { MaintenanceStatusRepository, PG_POOL, withSessionLock, type MaintenanceRunRecord } from '#dal';
import { MAINTENANCE_JOB } from '../queue/job-catalogue.js';

/** Advisory lock keys ("MAIN", "TNCE"): one maintenance run at a time across every worker. */
export const MAINTENANCE_LOCK_KEY = [0x4d41494e, 0x544e4345] as const;

export type MaintenanceReport = Omit<MaintenanceRunRecord, 'finishedAt' | 'error'>;

const LOG_LINES = {
  succeeded: 'maintenance run done',
  interrupted: 'maintenance run stopped by the shutdown; the next run goes on',
  skipped: 'maintenance run skipped: another run holds the lock',
};

/**
 * One maintenance run: the retention, then expired Idempotency-Keys, under a lock that makes every
 * other run started meanwhile (another worker's, or a second job of this one) a skipped run. Each
 * batch commits on its own, so a run that fails or stops halfway leaves a consistent database and
 * the next run carries on. What it did goes to the logs and to the status row /metrics reads.
 */
@Injectable()
export class MaintenanceRun {
  private current?: AbortController;

  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    private readonly retention: RetentionPass,
    private readonly idempotencyKeys: IdempotencyKeyExpiry,
    private readonly status: MaintenanceStatusRepository,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Runs once; a failure is recorded, logged and thrown (the queue retries the job). */
  async run(): Promise<MaintenanceReport> {
    // The embedded database serves all connections in one session, where the lock cannot tell this
    // process's runs apart: this can.
    if (this.current) return this.finish({ outcome: 'skipped', removed: {}, durationMs: 0, phasesMs: {} });
    const controller = (this.current = new AbortController());
    const started = Date.now();
    const tally = new MaintenanceTally();
    try {
      const locked = await withSessionLock(this.pool, MAINTENANCE_LOCK_KEY, async () => {
        const now = this.clock.now();
        await this.retention.run(now, tally, controller.signal);
        await this.idempotencyKeys.run(now, tally, controller.signal);
      });
      const outcome = !locked.acquired ? 'skipped' : controller.signal.aborted ? 'interrupted' : 'succeeded';
      return await this.finish({ outcome, ...tally.progress(started) });
    } catch (error) {
      await this.failed(error, tally.progress(started));
      throw error;
    } finally {
      this.current = undefined;
    }
  }

  /** Ends the run in progress after its current batch (the worker is shutting down). */
  stop(): void {
    this.current?.abort();
  }

  private async finish(report: MaintenanceReport & { outcome: keyof typeof LOG_LINES }): Promise<MaintenanceReport> {
    await this.status.record(MAINTENANCE_JOB, { ...report, finishedAt: new Date() });
    this.logger.info(report, LOG_LINES[report.outcome]);
    return report;
  }

  private async failed(error: unknown, progress: MaintenanceProgress): Promise<void> {
    this.logger.error({ err: error, ...progress }, 'maintenance run failed; the queue retries it');
    const record = { outcome: 'failed' as const, ...progress, finishedAt: new Date() };
    await this.status
      .record(MAINTENANCE_JOB, { ...record, error: error instanceof Error ? error.message : String(error) })
      .catch((recordError: unknown) => this.logger.warn({ err: recordError }, 'maintenance failure not recorded'));
  }
}
