import { newId } from '#common';
import { WorkflowRepository, type StoredStep, type WorkflowRow } from '#dal';
import type { TestApp } from './test-app.js';

export type StepInput = Partial<StoredStep> & { template: StoredStep['template'] };

/** A stored step with the defaults the workflows module would give it. */
export function step(input: StepInput): StoredStep {
  return { _id: newId(), active: true, shouldStopOnFail: false, filters: [], ...input };
}

export const inApp = (content = 'Hello {{subscriber.firstName}}', extra: Partial<StoredStep> = {}) =>
  step({ template: { type: 'in_app', content }, ...extra });

/** Inserts a workflow straight through the repository, so engine tests do not depend on the workflows API. */
export async function createWorkflow(
  t: TestApp,
  values: { identifier?: string; steps: StoredStep[]; active?: boolean; critical?: boolean; preferenceSettings?: Record<string, boolean> },
): Promise<WorkflowRow> {
  const repository = t.app.get(WorkflowRepository);
  const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
  const group = await repository.findOrCreateGroup(scope, 'General');
  const identifier = values.identifier ?? `wf-${newId().slice(-12)}`;
  const row = await repository.create(scope, {
    identifier,
    name: identifier,
    active: values.active ?? true,
    critical: values.critical ?? false,
    preferenceSettings: values.preferenceSettings ?? {},
    steps: values.steps,
    notificationGroupId: group.id,
  });
  if (!row) throw new Error(`workflow ${identifier} exists`);
  return row;
}
