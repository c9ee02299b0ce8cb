import { isDatabaseUnavailable } from '#dal';

type Pending<T, R> = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };

interface Group<T, R> {
  pending: Pending<T, R>[];
  inFlight: boolean;
}

/**
 * Group commit for writes, the counterpart of Batcher: items submitted while a write of their group
 * runs go together in the next one, so a busy worker pays one transaction for many step jobs or
 * events. `writeMany` answers one result per item, in order. When a combined write fails, each item
 * is written again on its own, so one bad item fails only its caller, not the batch (unless the
 * database is unreachable: then every item fails at once).
 */
export class WriteBatcher<T, R = void> {
  private readonly groups = new Map<string, Group<T, R>>();

  constructor(
    private readonly writeMany: (group: string, items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
  ) {}

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
      const results = await this.writeMany(
        name,
        batch.map((pending) => pending.item),
      );
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) for (const pending of batch) pending.reject(error);
      else {
        for (const pending of batch)
          await this.writeMany(name, [pending.item]).then(([result]) => pending.resolve(result), pending.reject);
      }
    }
    if (group.pending.length > 0) setImmediate(() => void this.flush(name, group));
    else {
      group.inFlight = false;
      this.groups.delete(name);
    }
  }
}
