import { Injectable } from '@nestjs/common';
import type { ApiKeyOwner } from '#dal';

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

/**
 * The owners of the keys this process has seen, by the key as sent: hashing it on every request was
 * 1–2 % of the trigger route's CPU. Only the stored keys need the hash (a leaked table then holds no
 * usable keys); keys in this process's memory live no longer than the TTL. Deleting an environment
 * forgets its keys here and, through the cluster channel the api's socket server provides, on every
 * other api process at once.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, { owner: ApiKeyOwner; expiresAt: number }>();
  private tellOtherProcesses?: (environmentId: string) => void;

  get(key: string): ApiKeyOwner | undefined {
    const cached = this.entries.get(key);
    return cached && cached.expiresAt > Date.now() ? cached.owner : undefined;
  }

  set(key: string, owner: ApiKeyOwner): void {
    if (this.entries.size >= CACHE_MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { owner, expiresAt: Date.now() + CACHE_TTL_MS });
  }

  /** How a deleted environment reaches the other api processes; unset with one process (embedded). */
  useClusterChannel(tell: ((environmentId: string) => void) | undefined): void {
    this.tellOtherProcesses = tell;
  }

  /** A deleted environment: its keys stop working here and on the other api processes. */
  forgetEnvironment(environmentId: string): void {
    this.forgetLocally(environmentId);
    this.tellOtherProcesses?.(environmentId);
  }

  forgetLocally(environmentId: string): void {
    for (const [key, entry] of this.entries) if (entry.owner.environmentId === environmentId) this.entries.delete(key);
  }
}
