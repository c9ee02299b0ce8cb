import { isDatabaseUnavailable } from '#dal';

type Pending<T> = { item: T; resolve: () => void; reject: (error: unknown) => void };

interface Group<T> {
  pending: Pending<T>[];
  inFlight: boolean;
}

/**
 * Group commit for writes, the counterpart of Batcher: items submitted while a write of their group
 * runs go together in the next one, so a busy worker pays one transaction for many step jobs. When
 * a combined write fails, each item is written again on its own, so one bad item fails only its
 * caller, not the batch (unless the database is unreachable: then every item fails at once).
 */
export class WriteBatcher<T> {
  private readonly groups = new Map<string, Group<T>>();

  constructor(
    private readonly writeMany: (group: string, items: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  submit(group: string, item: T): Promise<void> {
    let entry = this.groups.get(group);
    if (!entry) {
      entry = { pending: [], inFlight: false };
      this.groups.set(group, entry);
    }
    const promise = new Promise<void>((resolve, reject) => entry.pending.push({ item, resolve, reject }));
    if (!entry.inFlight) {
      entry.inFlight = true;
      setImmediate(() => void this.flush(group, entry));
    }
    return promise;
  }

  private async flush(name: string, group: Group<T>): Promise<void> {
    const batch = group.pending.splice(0, this.maxBatch);
    try {
      await this.writeMany(name, batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) for (const pending of batch) pending.reject(error);
      else {
        for (const pending of batch) await this.writeMany(name, [pending.item]).then(pending.resolve, pending.reject);
      }
    }
    if (group.pending.length > 0) setImmediate(() => void this.flush(name, group));
    else {
      group.inFlight = false;
      this.groups.delete(name);
    }
  }
}
