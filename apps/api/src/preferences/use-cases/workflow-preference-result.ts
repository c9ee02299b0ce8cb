import type { PreferenceRow, WorkflowRow } from '#dal';
import { resolveWorkflowPreferences } from '#application';
import type { WorkflowPreferenceResultDto } from '../dto/bulk-preferences.dto.js';

/** A workflow's resolved preference in Novu's per-workflow shape (the bulk answer, the inbox list). */
export function toWorkflowPreferenceResult(workflow: WorkflowRow, rows: PreferenceRow[]): WorkflowPreferenceResultDto {
  const { enabled, channels } = resolveWorkflowPreferences(workflow, {
    global: rows.find((row) => row.workflowId === null)?.channels,
    workflow: rows.find((row) => row.workflowId === workflow.id)?.channels,
  });
  return {
    level: 'template',
    workflow: {
      id: workflow.id,
      identifier: workflow.identifier,
      name: workflow.name,
      critical: workflow.critical,
      tags: workflow.tags,
      ...(workflow.data ? { data: workflow.data } : {}),
      severity: 'none',
    },
    enabled,
    channels,
  };
}
