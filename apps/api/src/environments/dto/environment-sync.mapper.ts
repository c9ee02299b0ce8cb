import {
  countChanges,
  type EnvironmentDiffResult,
  type PublishOutcome,
  type ResourceChange,
  type ResourceDiff,
  type ResourceKind,
  type ResourceSelector,
} from '#application';
import type {
  AnswerResourceType,
  DiffEnvironmentResponseDto,
  DiffResourceRefDto,
  PublishEnvironmentResponseDto,
  PublishResultDto,
  ResourceChangeDto,
  ResourceDiffResultDto,
  ResourceToPublishDto,
} from './environment-sync.dto.js';

const ANSWER_TYPE: Record<ResourceKind, AnswerResourceType> = { workflow: 'REGULAR', layout: 'BRIDGE' };

export function toSelectors(resources: ResourceToPublishDto[] | undefined): ResourceSelector[] | undefined {
  return resources?.map((resource) => ({
    kind: ['layout', 'BRIDGE'].includes(resource.resourceType) ? 'layout' : 'workflow',
    id: resource.resourceId,
  }));
}

function ref(key: string, row: { name: string; updatedAt: Date } | undefined): DiffResourceRefDto | null {
  return row ? { id: key, name: row.name, updatedAt: row.updatedAt.toISOString() } : null;
}

function change(kind: ResourceKind, item: ResourceChange): ResourceChangeDto {
  return {
    resourceType: ANSWER_TYPE[kind],
    action: item.action,
    diffs: { previous: item.previous, new: item.next },
    ...(item.stepType !== undefined ? { stepType: item.stepType } : {}),
    ...(item.previousIndex !== undefined ? { previousIndex: item.previousIndex } : {}),
    ...(item.newIndex !== undefined ? { newIndex: item.newIndex } : {}),
  };
}

function resource(diff: ResourceDiff): ResourceDiffResultDto {
  return {
    resourceType: ANSWER_TYPE[diff.kind],
    sourceResource: ref(diff.key, diff.source),
    targetResource: ref(diff.key, diff.target),
    changes: diff.changes.map((item) => change(diff.kind, item)),
    summary: countChanges(diff.changes),
  };
}

export function toDiffResponse(result: EnvironmentDiffResult): DiffEnvironmentResponseDto {
  const resources = result.resources.map(resource);
  const totalChanges = resources.reduce(
    (sum, item) => sum + item.summary.added + item.summary.modified + item.summary.deleted,
    0,
  );
  return {
    sourceEnvironmentId: result.source.id,
    targetEnvironmentId: result.target.id,
    resources,
    summary: { totalEntities: resources.length, totalChanges, hasChanges: totalChanges > 0 },
  };
}

function resultOf(kind: ResourceKind, outcomes: PublishOutcome[]): PublishResultDto {
  const resourceType = ANSWER_TYPE[kind];
  const mine = outcomes.filter((outcome) => outcome.kind === kind);
  const base = (outcome: PublishOutcome) => ({ resourceType, resourceId: outcome.key, resourceName: outcome.name });
  return {
    resourceType,
    successful: mine.flatMap((outcome) =>
      outcome.status === 'created' || outcome.status === 'updated' || outcome.status === 'deleted'
        ? [{ ...base(outcome), action: outcome.status }]
        : [],
    ),
    failed: mine.flatMap((outcome) =>
      outcome.status === 'failed' ? [{ ...base(outcome), error: outcome.reason ?? 'failed' }] : [],
    ),
    skipped: mine.flatMap((outcome) =>
      outcome.status === 'skipped' ? [{ ...base(outcome), reason: outcome.reason ?? 'skipped' }] : [],
    ),
    totalProcessed: mine.length,
  };
}

/** One result per resource type, layouts first (the order they are applied in). */
export function toPublishResponse(outcomes: PublishOutcome[]): PublishEnvironmentResponseDto {
  const results = [resultOf('layout', outcomes), resultOf('workflow', outcomes)];
  const total = (key: 'successful' | 'failed' | 'skipped') =>
    results.reduce((sum, result) => sum + result[key].length, 0);
  return {
    results,
    summary: {
      resources: outcomes.length,
      successful: total('successful'),
      failed: total('failed'),
      skipped: total('skipped'),
    },
  };
}
