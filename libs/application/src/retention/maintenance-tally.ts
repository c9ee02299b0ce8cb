import type { RemovedRows } from '#dal';

export interface MaintenanceProgress {
  removed: RemovedRows;
  durationMs: number;
  /** Milliseconds by phase. */
  phasesMs: Record<string, number>;
}

/**
 * What a maintenance run did so far: rows removed by table, and the time each phase took. Each batch
 * commits on its own, so what a run removed before it failed or stopped is removed for good and
 * counted here. The phases tell an operator (and the bench) where a slow run spends its time.
 */
export class MaintenanceTally {
  private readonly counts: RemovedRows = {};
  private readonly phaseMs: Record<string, number> = {};

  add(removed: RemovedRows): void {
    for (const [table, count] of Object.entries(removed)) this.counts[table] = (this.counts[table] ?? 0) + count;
  }

  /** Runs one phase of the run, adding its wall time to the phase's. */
  async timed<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.phaseMs[phase] = (this.phaseMs[phase] ?? 0) + Math.round(performance.now() - started);
    }
  }

  /** What the run did by now, in the terms of its record: `started` is when it began (epoch ms). */
  progress(started: number): MaintenanceProgress {
    return { removed: { ...this.counts }, durationMs: Date.now() - started, phasesMs: { ...this.phaseMs } };
  }
}
