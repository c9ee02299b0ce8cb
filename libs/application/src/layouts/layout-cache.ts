import { Injectable } from '@nestjs/common';
import { LayoutRepository, type LayoutRow } from '#dal';

const TTL_MS = 5_000;
const MAX_ENVIRONMENTS = 1_000;

/** An environment's live layouts, found by layoutId or internal id, and its default. */
export interface EnvironmentLayouts {
  byKey: Map<string, LayoutRow>;
  default?: LayoutRow;
}

/**
 * Every email step reads its environment's layouts; they are few and change rarely, so each process
 * keeps them per environment for a few seconds (one query per environment, not one per email). The
 * layout routes invalidate on every write, so this process sees an edit at once and others within
 * TTL_MS. Provided only by EmailLayoutsModule: a second instance would miss the invalidations.
 */
@Injectable()
export class LayoutCache {
  private readonly entries = new Map<string, { expiresAt: number; layouts: Promise<EnvironmentLayouts> }>();

  constructor(private readonly layouts: LayoutRepository) {}

  of(environmentId: string): Promise<EnvironmentLayouts> {
    const now = Date.now();
    const cached = this.entries.get(environmentId);
    if (cached && cached.expiresAt > now) return cached.layouts;
    this.entries.delete(environmentId);
    const layouts = this.load(environmentId);
    this.entries.set(environmentId, { expiresAt: now + TTL_MS, layouts });
    layouts.catch(() => {
      if (this.entries.get(environmentId)?.layouts === layouts) this.entries.delete(environmentId);
    });
    if (this.entries.size > MAX_ENVIRONMENTS) this.entries.delete(this.entries.keys().next().value!);
    return layouts;
  }

  invalidate(environmentId: string): void {
    this.entries.delete(environmentId);
  }

  private async load(environmentId: string): Promise<EnvironmentLayouts> {
    const rows = await this.layouts.listAll(environmentId);
    const byKey = new Map<string, LayoutRow>();
    for (const row of rows) {
      byKey.set(row.layoutId, row);
      byKey.set(row.id, row);
    }
    return { byKey, default: rows.find((row) => row.isDefault) };
  }
}
