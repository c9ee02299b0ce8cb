type Pending<T, R> = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };

interface Group<T, R> {
  pending: Pending<T, R>[];
  inFlight: boolean;
}

/**
 * Writes a batch of items: one result per item, in order; or nothing when the callers only wait for
 * the write to be done.
 */
export type WriteMany<T, R> = (group: string, items: T[]) => Promise<[R] extends [void] ? void : R[]>;

export interface GroupCommitOptions {
  /** Items per write at most. */
  maxBatch?: number;
  /**
   * Whether a failed combined write is written again item by item, so one bad item (a value a
   * constraint refuses) fails only its caller. Never for an error every item would meet again, such
   * as an unreachable database. By default no item is retried.
   */
  retryAlone?: (error: unknown) => boolean;
}

/**
 * Group commit: items submitted while a write of their group (for instance their environment) runs
 * go together in the next one, so the batch grows with the load and a lone item costs one turn of
 * the event loop. A busy process pays one statement or transaction for many callers; the statement
 * count, not the database, is what saturates it (each one costs socket writes, reads and query
 * building in Node). Each caller's promise settles with its own item's result.
 */
export class GroupCommit<T, R = void> {
  private readonly groups = new Map<string, Group<T, R>>();
  private readonly maxBatch: number;
  private readonly retryAlone: (error: unknown) => boolean;

  constructor(
    private readonly writeMany: WriteMany<T, R>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.retryAlone = options.retryAlone ?? (() => false);
  }

  submit(group: string, item: T): Promise<R> {
    let entry = this.groups.get(group);
    if (!entry) {
      entry = { pending: [], inFlight: false };
      this.groups.set(group, entry);
    }
    const promise = new Promise<R>((resolve, reject) => entry.pending.push({ item, resolve, reject }));
    if (!entry.inFlight) {
      entry.inFlight = true;
      setImmediate(() => void this.flush(group, entry));
    }
    return promise;
  }

  private async flush(name: string, group: Group<T, R>): Promise<void> {
    const batch = group.pending.splice(0, this.maxBatch);
    try {
      const results = await this.write(
        name,
        batch.map((pending) => pending.item),
      );
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || !this.retryAlone(error)) for (const pending of batch) pending.reject(error);
      else {
        for (const pending of batch)
          await this.write(name, [pending.item]).then(([result]) => pending.resolve(result), pending.reject);
      }
    }
    if (group.pending.length > 0) setImmediate(() => void this.flush(name, group));
    else {
      group.inFlight = false;
      this.groups.delete(name);
    }
  }

  /** The results of a write, one per item; undefined each when the write answers nothing. */
  private async write(name: string, items: T[]): Promise<R[]> {
    const results = (await this.writeMany(name, items)) as R[] | void;
    return results ?? new Array<R>(items.length);
  }
}
