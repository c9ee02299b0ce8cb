/**
 * Loads kept per key for a few seconds, the shape of every per-process cache of rarely changing data
 * (layouts, environment variables, translations): concurrent readers share one load, a failed load is
 * forgotten at once, the oldest key goes first past `maxKeys`, and `invalidate` drops a key so the next
 * read loads again.
 */
export class ExpiringLoads<T> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys: number,
    private readonly load: (key: string) => Promise<T>,
  ) {}

  get(key: string): Promise<T> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    this.entries.delete(key);
    const value = this.load(key);
    this.entries.set(key, { expiresAt: now + this.ttlMs, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    // Map order is insertion order: the first key is the oldest entry.
    if (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }
}
