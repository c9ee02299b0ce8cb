/** What the v2 workflow routes answer and what the editor's form holds. */
export interface WorkflowStep {
  _id?: string;
  stepId?: string;
  name: string;
  type: string;
  controlValues: Record<string, unknown>;
}

interface PreferenceLevel {
  all: { enabled: boolean; readOnly: boolean };
  channels: Record<string, { enabled: boolean }>;
}

export interface Workflow {
  _id: string;
  workflowId: string;
  name: string;
  description: string;
  active: boolean;
  tags: string[];
  payloadSchema: Record<string, unknown> | null;
  validatePayload: boolean;
  preferences: { user: PreferenceLevel | null; default: PreferenceLevel };
  steps: WorkflowStep[];
  updatedAt: string;
}

/** What the editor's form holds; `critical` is the workflow default's read-only flag. */
export type WorkflowInput = Pick<Workflow, 'name' | 'description' | 'active' | 'steps'> & { critical: boolean };

export interface StepPreviewAnswer {
  result: { type: string; preview: Record<string, unknown> };
}
