import { translationsKey, type EnvironmentContent, type LayoutRow, type StoredStep, type WorkflowRow } from '#dal';

export type ResourceKind = 'workflow' | 'layout';
export type ResourceAction = 'added' | 'modified' | 'deleted';
export type ChangeAction = ResourceAction | 'unchanged';

/** One compared part of a resource: the resource's own fields, or one step of a workflow. */
export interface ResourceChange {
  part: ResourceKind | 'step';
  action: ChangeAction;
  previous: Record<string, unknown> | null;
  next: Record<string, unknown> | null;
  stepType?: string;
  previousIndex?: number;
  newIndex?: number;
}

interface DiffOf<K extends ResourceKind, Row> {
  kind: K;
  /** The key the two environments share: a workflow's trigger identifier, a layout's layoutId. */
  key: string;
  action: ResourceAction;
  source?: Row;
  target?: Row;
  changes: ResourceChange[];
}

export type WorkflowDiff = DiffOf<'workflow', WorkflowRow>;
export type LayoutDiff = DiffOf<'layout', LayoutRow>;
export type ResourceDiff = WorkflowDiff | LayoutDiff;

const DEFAULT_GROUP = 'General';

/** JSON with object keys sorted, so equal content compares equal whatever order its keys were stored in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** What publishing does to one compared part, given its content in the target and in the source. */
function actionOf(previous: Record<string, unknown> | null, next: Record<string, unknown> | null): ChangeAction {
  if (!previous) return 'added';
  if (!next) return 'deleted';
  return same(previous, next) ? 'unchanged' : 'modified';
}

/** A step without the ids each environment gives its own steps. */
export function stepContent(step: StoredStep): Record<string, unknown> {
  const { _id: _id, _templateId: _templateId, _parentId: _parentId, uuid: _uuid, variants, ...content } = step;
  return variants ? { ...content, variants: variants.map(stepContent) } : content;
}

/** A resource's translations by locale, as publishing copies them. */
function translationsOf(content: EnvironmentContent, resourceType: 'workflow' | 'layout', resourceId: string) {
  return content.translations.get(translationsKey({ resourceType, resourceId })) ?? {};
}

/**
 * The fields of a workflow that publishing copies (its group by name: group ids differ per
 * environment), with its translations.
 */
export function workflowContent(row: WorkflowRow, content: EnvironmentContent): Record<string, unknown> {
  return {
    name: row.name,
    description: row.description,
    active: row.active,
    draft: row.draft,
    critical: row.critical,
    preferenceSettings: row.preferenceSettings,
    tags: row.tags,
    data: row.data,
    origin: row.origin,
    payloadSchema: row.payloadSchema,
    validatePayload: row.validatePayload,
    preferences: row.preferences,
    notificationGroup: content.groupNames.get(row.notificationGroupId) ?? DEFAULT_GROUP,
    isTranslationEnabled: row.isTranslationEnabled,
    translations: translationsOf(content, 'workflow', row.identifier),
  };
}

export function layoutContent(row: LayoutRow, content: EnvironmentContent): Record<string, unknown> {
  return {
    name: row.name,
    isDefault: row.isDefault,
    controlValues: row.controlValues,
    isTranslationEnabled: row.isTranslationEnabled,
    translations: translationsOf(content, 'layout', row.layoutId),
  };
}

/** Steps compared position by position: the target keeps its own step ids, so ids cannot pair them. */
function stepChanges(source: StoredStep[], target: StoredStep[]): ResourceChange[] {
  const changes: ResourceChange[] = [];
  for (let index = 0; index < Math.max(source.length, target.length); index++) {
    const next = source[index] ? stepContent(source[index]) : null;
    const previous = target[index] ? stepContent(target[index]) : null;
    const action = actionOf(previous, next);
    changes.push({
      part: 'step',
      action,
      previous,
      next,
      stepType: (source[index] ?? target[index]).template.type,
      ...(previous ? { previousIndex: index } : {}),
      ...(next ? { newIndex: index } : {}),
    });
  }
  return changes;
}

function workflowDiff(
  key: string,
  source: WorkflowRow | undefined,
  target: WorkflowRow | undefined,
  content: { source: EnvironmentContent; target: EnvironmentContent },
): WorkflowDiff | undefined {
  const next = source ? workflowContent(source, content.source) : null;
  const previous = target ? workflowContent(target, content.target) : null;
  const steps = stepChanges(source?.steps ?? [], target?.steps ?? []);
  const own = actionOf(previous, next);
  if (own === 'unchanged' && steps.every((step) => step.action === 'unchanged')) return undefined;
  const action: ResourceAction = own === 'unchanged' ? 'modified' : own;
  return {
    kind: 'workflow',
    key,
    action,
    source,
    target,
    changes: [{ part: 'workflow', action: own, previous, next }, ...steps],
  };
}

function layoutDiff(
  key: string,
  source: LayoutRow | undefined,
  target: LayoutRow | undefined,
  content: { source: EnvironmentContent; target: EnvironmentContent },
): LayoutDiff | undefined {
  const next = source ? layoutContent(source, content.source) : null;
  const previous = target ? layoutContent(target, content.target) : null;
  const action = actionOf(previous, next);
  if (action === 'unchanged') return undefined;
  return { kind: 'layout', key, action, source, target, changes: [{ part: 'layout', action, previous, next }] };
}

function byKey<Row>(rows: Row[], key: (row: Row) => string): Map<string, Row> {
  return new Map(rows.map((row) => [key(row), row]));
}

/** The keys of both sides: the source's in its order, then those only the target has. */
function unionKeys(source: Map<string, unknown>, target: Map<string, unknown>): string[] {
  return [...source.keys(), ...[...target.keys()].filter((key) => !source.has(key))];
}

/**
 * What publishing `source` into `target` would change: workflows matched by trigger identifier and
 * layouts by layoutId. Unchanged resources are left out.
 */
export function diffEnvironments(source: EnvironmentContent, target: EnvironmentContent): ResourceDiff[] {
  const content = { source, target };
  const sourceWorkflows = byKey(source.workflows, (row) => row.identifier);
  const targetWorkflows = byKey(target.workflows, (row) => row.identifier);
  const sourceLayouts = byKey(source.layouts, (row) => row.layoutId);
  const targetLayouts = byKey(target.layouts, (row) => row.layoutId);
  const layoutDiffs = unionKeys(sourceLayouts, targetLayouts).map((key) =>
    layoutDiff(key, sourceLayouts.get(key), targetLayouts.get(key), content),
  );
  const workflowDiffs = unionKeys(sourceWorkflows, targetWorkflows).map((key) =>
    workflowDiff(key, sourceWorkflows.get(key), targetWorkflows.get(key), content),
  );
  return [...layoutDiffs, ...workflowDiffs].filter((diff): diff is ResourceDiff => diff !== undefined);
}

export interface ChangeCounts {
  added: number;
  modified: number;
  deleted: number;
  unchanged: number;
}

export function countChanges(changes: ResourceChange[]): ChangeCounts {
  const counts: ChangeCounts = { added: 0, modified: 0, deleted: 0, unchanged: 0 };
  for (const change of changes) counts[change.action]++;
  return counts;
}
