import { Injectable } from '@nestjs/common';
import { WorkflowRepository, type WorkflowRow } from '#dal';

const TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

/**
 * Workflows read on every trigger and every step job, kept per process for a few seconds. An edit
 * made through this process's api is seen at once (the workflow routes call `invalidate`); other
 * processes see it at most TTL_MS later. Misses are not kept, so a workflow created a moment ago is
 * found at once. Concurrent lookups share one query. Provided only by WorkflowCacheModule: a second
 * instance would miss the invalidations.
 */
@Injectable()
export class WorkflowCache {
  private readonly entries = new Map<string, { expiresAt: number; row: Promise<WorkflowRow | undefined> }>();

  constructor(private readonly workflows: WorkflowRepository) {}

  byId(environmentId: string, id: string): Promise<WorkflowRow | undefined> {
    return this.get(`id:${environmentId}:${id}`, () => this.workflows.findById(environmentId, id));
  }

  byIdentifier(environmentId: string, identifier: string): Promise<WorkflowRow | undefined> {
    return this.get(`identifier:${environmentId}:${identifier}`, () =>
      this.workflows.findByIdentifier(environmentId, identifier),
    );
  }

  /**
   * Forgets every workflow of the environment: an update can rename the identifier, so dropping the
   * environment's few entries is simpler than tracking which keys pointed at the changed row.
   */
  invalidate(environmentId: string): void {
    for (const key of this.entries.keys()) {
      if (key.startsWith(`id:${environmentId}:`) || key.startsWith(`identifier:${environmentId}:`))
        this.entries.delete(key);
    }
  }

  private get(key: string, load: () => Promise<WorkflowRow | undefined>): Promise<WorkflowRow | undefined> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.row;
    this.entries.delete(key);
    const row = load();
    this.entries.set(key, { expiresAt: now + TTL_MS, row });
    const forget = () => {
      if (this.entries.get(key)?.row === row) this.entries.delete(key);
    };
    row.then((value) => value ?? forget(), forget);
    // Map order is insertion order: the first key is the oldest entry.
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return row;
  }
}
