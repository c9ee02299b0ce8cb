import { Injectable } from '@nestjs/common';
import { entryMatches, type StoredSubscriptionPreference } from '#application';
import { WorkflowRepository, type WorkflowRow } from '#dal';
import type { SubscriptionPreferenceDto } from './dto/topic.dto.js';

type PreferenceWorkflowRow = Pick<WorkflowRow, 'id' | 'identifier' | 'name' | 'critical' | 'tags' | 'data'>;

/** Workflows one answer looks up for its subscriptions' preferences, at most. */
const MAX_WORKFLOWS = 500;

/** A subscription whose preferences an answer shows. */
export interface PreferencesOwner {
  identifier: string;
  preferences: unknown[] | null;
}

/**
 * Preferences as Novu shows them: one entry per workflow they name (by id, identifier or tag), with the
 * entry that decides for it (the last naming it); an entry naming no existing workflow shows with a
 * null workflow. The workflows of every subscription of one answer are read in one query.
 */
@Injectable()
export class SubscriptionPreferencesView {
  constructor(private readonly workflows: WorkflowRepository) {}

  async describe(
    environmentId: string,
    owners: PreferencesOwner[],
  ): Promise<(SubscriptionPreferenceDto[] | undefined)[]> {
    const stored = owners.map((owner) => owner.preferences as StoredSubscriptionPreference[] | null);
    const entries = stored.flatMap((preferences) => preferences ?? []);
    if (entries.length === 0) return owners.map(() => undefined);
    const keys = [...new Set(entries.flatMap((entry) => entry.workflowIds ?? []))];
    const tags = [...new Set(entries.flatMap((entry) => entry.tags ?? []))];
    const rows = await this.workflows.findByKeysOrTags(environmentId, keys, tags, MAX_WORKFLOWS);
    return stored.map((preferences, index) =>
      preferences ? describeOne(preferences, rows, owners[index].identifier) : undefined,
    );
  }
}

function describeOne(
  preferences: StoredSubscriptionPreference[],
  rows: PreferenceWorkflowRow[],
  subscriptionId: string,
): SubscriptionPreferenceDto[] {
  const view = (entry: StoredSubscriptionPreference, workflow: PreferenceWorkflowRow | null) => ({
    subscriptionId,
    workflow: workflow && {
      id: workflow.id,
      identifier: workflow.identifier,
      name: workflow.name,
      critical: workflow.critical,
      tags: workflow.tags,
      data: workflow.data ?? {},
      severity: 'none' as const,
    },
    enabled: entry.enabled,
    ...(entry.condition ? { condition: entry.condition } : {}),
  });
  const matched = new Set<StoredSubscriptionPreference>();
  const byWorkflow = rows.flatMap((workflow) => {
    const entry = preferences.findLast((candidate) => entryMatches(candidate, workflow));
    if (!entry) return [];
    for (const candidate of preferences) if (entryMatches(candidate, workflow)) matched.add(candidate);
    return [view(entry, workflow)];
  });
  const unmatched = preferences.filter((entry) => !matched.has(entry)).map((entry) => view(entry, null));
  return [...byWorkflow, ...unmatched];
}
