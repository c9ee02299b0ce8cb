import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { useSession } from '../../session/session';
import { conditionAsText, controlsWithCondition } from './step-condition';
import { preferencesInput, preferencesRequest } from './workflow-preferences';
import type { StepPreviewAnswer, Workflow, WorkflowInput } from './workflow-types';

export function toInput(workflow: Workflow): WorkflowInput {
  const { name, description, active, steps } = workflow;
  return {
    name,
    description,
    active,
    steps: steps.map(conditionAsText),
    preferences: preferencesInput(workflow),
  };
}

/**
 * PUT replaces the whole workflow (a field left out gets its default), so the fields the form does not show
 * are sent back as they are stored.
 */
function toRequest(stored: Workflow, input: WorkflowInput) {
  const { preferences, ...shown } = input;
  return {
    ...shown,
    steps: shown.steps.map((step, index) => ({ ...step, controlValues: controlsWithCondition(step, index) })),
    tags: stored.tags,
    payloadSchema: stored.payloadSchema,
    validatePayload: stored.validatePayload,
    preferences: preferencesRequest(stored, preferences),
  };
}

const workflowPath = (workflowId: string) => `/v2/workflows/${encodeURIComponent(workflowId)}`;

export function useWorkflows() {
  const { environment } = useSession();
  return useQuery({
    queryKey: ['workflows', environment.id, 'v2'],
    queryFn: () => api<{ workflows: Workflow[]; totalCount: number }>('GET', '/v2/workflows?limit=100'),
  });
}

export function useWorkflow(workflowId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: ['workflows', environment.id, 'v2', workflowId],
    queryFn: () => api<Workflow>('GET', workflowPath(workflowId)),
  });
}

export function useCreateWorkflow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; workflowId: string }) =>
      api<Workflow>('POST', '/v2/workflows', { ...input, active: true, steps: [] }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['workflows'] }),
  });
}

const savedByOthers = (updatedAt: string) =>
  new ApiError(
    412,
    `Someone saved this workflow at ${new Date(updatedAt).toLocaleTimeString()}, after you opened it: reload to see their changes (your edits stay in the form until then).`,
  );

/**
 * Saves over the version the editor loaded and no other: the PUT names it in If-Match, and the server writes
 * only that version (412 otherwise), so of two saves from the same version one wins. The fields the form
 * does not show are read just before, from that same version.
 */
export function useSaveWorkflow(workflowId: string, loadedUpdatedAt: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: WorkflowInput) => {
      const current = await api<Workflow>('GET', workflowPath(workflowId));
      if (current.updatedAt !== loadedUpdatedAt) throw savedByOthers(current.updatedAt);
      try {
        return await api<Workflow>('PUT', workflowPath(workflowId), toRequest(current, input), {
          'If-Match': `"${current.updatedAt}"`,
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 412) throw error;
        throw savedByOthers((await api<Workflow>('GET', workflowPath(workflowId))).updatedAt);
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['workflows'] }),
  });
}

export function previewStep(
  workflowId: string,
  stepId: string,
  controlValues: Record<string, unknown>,
  payload: Record<string, unknown>,
): Promise<StepPreviewAnswer> {
  return api<StepPreviewAnswer>('POST', `${workflowPath(workflowId)}/step/${encodeURIComponent(stepId)}/preview`, {
    controlValues,
    previewPayload: {
      payload,
      subscriber: { subscriberId: 'preview-subscriber', firstName: 'Ada', lastName: 'Lovelace' },
    },
  });
}
