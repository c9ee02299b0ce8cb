import { Injectable } from '@nestjs/common';

/** How far back a started job's wait still counts. */
const RECENT_MS = 5_000;

/**
 * The longest wait of this process's queue jobs, for /health: the waits of jobs started in the last
 * few seconds, and the age of the longest wait still going on in a consumer's lanes. Jobs no worker
 * has taken yet show up as soon as one takes them (its lanes fill once its slots are busy).
 */
@Injectable()
export class QueueWaits {
  private readonly ongoing = new Set<() => number | undefined>();
  private recent: { at: number; waitMs: number }[] = [];

  /** `oldestSince`: when the longest wait still going on began (undefined: none). */
  watch(oldestSince: () => number | undefined): void {
    this.ongoing.add(oldestSince);
  }

  started(waitMs: number, now = Date.now()): void {
    this.recent = this.recent.filter((entry) => entry.at > now - RECENT_MS && entry.waitMs > waitMs);
    this.recent.push({ at: now, waitMs });
  }

  longestMs(now = Date.now()): number {
    let longest = 0;
    for (const entry of this.recent) if (entry.at > now - RECENT_MS) longest = Math.max(longest, entry.waitMs);
    for (const oldestSince of this.ongoing) {
      const since = oldestSince();
      if (since !== undefined) longest = Math.max(longest, now - since);
    }
    return longest;
  }
}
