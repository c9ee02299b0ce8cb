import type { RemovedRows } from '#dal';

/**
 * Rows a maintenance run removed so far, by table. Each batch commits on its own, so what a run
 * removed before it failed or stopped is removed for good and counted here.
 */
export class RemovedRowsTally {
  private readonly counts: RemovedRows = {};

  add(removed: RemovedRows): void {
    for (const [table, count] of Object.entries(removed)) this.counts[table] = (this.counts[table] ?? 0) + count;
  }

  get rows(): RemovedRows {
    return { ...this.counts };
  }
}
