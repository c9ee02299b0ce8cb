import { Injectable } from '@nestjs/common';
import { LayoutRepository, type LayoutRow } from '#dal';
import { ExpiringLoads } from '../cache/expiring-loads.js';

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
  private readonly entries = new ExpiringLoads(TTL_MS, MAX_ENVIRONMENTS, (environmentId) => this.load(environmentId));

  constructor(private readonly layouts: LayoutRepository) {}

  of(environmentId: string): Promise<EnvironmentLayouts> {
    return this.entries.get(environmentId);
  }

  invalidate(environmentId: string): void {
    this.entries.invalidate(environmentId);
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
