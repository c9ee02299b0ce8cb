type Waiter<V> = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };

interface Group<K, V> {
  keys: Map<string, { key: K; waiters: Waiter<V>[] }>;
  inFlight: boolean;
}

/**
 * Turns many concurrent single-key reads or claims into one statement per group (for instance per
 * environment). The first request of an idle group is sent on the next turn of the event loop;
 * requests arriving while a statement runs wait for it and go together in the next one, so the
 * batch grows with the load (like a group commit) and a lone request costs one turn. The statement
 * count, not PostgreSQL, is what saturates a busy worker: each one costs socket writes, reads and
 * query building in Node.
 */
export class Batcher<K, V> {
  private readonly groups = new Map<string, Group<K, V>>();

  constructor(
    /** Loads a batch; keys missing from the returned map resolve to undefined. */
    private readonly loadMany: (group: string, keys: K[]) => Promise<Map<string, V>>,
    private readonly idOf: (key: K) => string,
    /** A claim: the same key requested twice in one batch is given to the first caller only. */
    private readonly exclusive = false,
    private readonly maxBatch = 200,
  ) {}

  load(group: string, key: K): Promise<V | undefined> {
    let entry = this.groups.get(group);
    if (!entry) {
      entry = { keys: new Map(), inFlight: false };
      this.groups.set(group, entry);
    }
    const id = this.idOf(key);
    const promise = new Promise<V | undefined>((resolve, reject) => {
      const pending = entry.keys.get(id);
      if (pending) pending.waiters.push({ resolve, reject });
      else entry.keys.set(id, { key, waiters: [{ resolve, reject }] });
    });
    if (!entry.inFlight) {
      entry.inFlight = true;
      setImmediate(() => void this.flush(group, entry));
    }
    return promise;
  }

  private async flush(name: string, group: Group<K, V>): Promise<void> {
    const batch = [...group.keys.entries()].slice(0, this.maxBatch);
    for (const [id] of batch) group.keys.delete(id);
    try {
      const found = await this.loadMany(
        name,
        batch.map(([, pending]) => pending.key),
      );
      for (const [id, pending] of batch) {
        pending.waiters.forEach((waiter, index) =>
          waiter.resolve(this.exclusive && index > 0 ? undefined : found.get(id)),
        );
      }
    } catch (error) {
      for (const [, pending] of batch) for (const waiter of pending.waiters) waiter.reject(error);
    }
    if (group.keys.size > 0) setImmediate(() => void this.flush(name, group));
    else {
      group.inFlight = false;
      this.groups.delete(name);
    }
  }
}
