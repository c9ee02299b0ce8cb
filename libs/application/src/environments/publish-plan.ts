import type { ResourceDiff, ResourceKind } from './environment-diff.js';

/** A resource named in a publish request; without a kind it may be a workflow or a layout. */
export interface ResourceSelector {
  kind?: ResourceKind;
  id: string;
}

export interface PublishRequest {
  sourceEnvironmentId?: string;
  dryRun?: boolean;
  resources?: ResourceSelector[];
}

export type PublishStatus = 'created' | 'updated' | 'deleted' | 'skipped' | 'failed';

export interface PublishOutcome {
  kind: ResourceKind;
  key: string;
  name: string;
  status: PublishStatus;
  reason?: string;
}

export const nameOf = (diff: ResourceDiff) => (diff.source ?? diff.target)!.name;

/** What a change does to the target when applied. */
export const STATUS_OF = { added: 'created', modified: 'updated', deleted: 'deleted' } as const;

/** The changes a request names (all when it names none); names matching no change are skipped. */
export function selectChanges(
  diffs: ResourceDiff[],
  selectors: ResourceSelector[] | undefined,
): { selected: ResourceDiff[]; unmatched: PublishOutcome[] } {
  if (!selectors) return { selected: diffs, unmatched: [] };
  const selected = new Set<ResourceDiff>();
  const unmatched: PublishOutcome[] = [];
  for (const selector of selectors) {
    const match = diffs.find(
      (diff) =>
        (!selector.kind || selector.kind === diff.kind) &&
        [diff.key, diff.source?.id, diff.target?.id].includes(selector.id),
    );
    if (match) selected.add(match);
    else
      unmatched.push({
        kind: selector.kind ?? 'workflow',
        key: selector.id,
        name: selector.id,
        status: 'skipped',
        reason: 'No change to publish: the resource is unchanged or exists in neither environment',
      });
  }
  // Layouts before workflows, as diffEnvironments orders them: a workflow may name a layout.
  return { selected: diffs.filter((diff) => selected.has(diff)), unmatched };
}

/** The report of a publish rolled back by the failed write of `failed`. */
export function rolledBack(selected: ResourceDiff[], failed: ResourceDiff): PublishOutcome[] {
  return selected.map((diff) => ({
    kind: diff.kind,
    key: diff.key,
    name: nameOf(diff),
    ...(diff === failed
      ? { status: 'failed' as const, reason: 'Could not be written; the publish was rolled back and changed nothing' }
      : { status: 'skipped' as const, reason: `Rolled back: ${failed.kind} ${failed.key} could not be written` }),
  }));
}
