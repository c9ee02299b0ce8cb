/** What the v2 workflow routes answer and what the editor's form holds. */
export interface WorkflowStep {
  _id?: string;
  stepId?: string;
  name: string;
  type: string;
  controlValues: Record<string, unknown>;
}

export interface PreferenceLevel {
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

export type PreferenceChannel = 'in_app' | 'email' | 'sms' | 'chat' | 'push';

/** What the form edits of the workflow's preferences: each channel's default and the read-only switch. */
export interface PreferencesInput {
  channels: Record<PreferenceChannel, boolean>;
  critical: boolean;
}

/** What the editor's form holds. */
export type WorkflowInput = Pick<Workflow, 'name' | 'description' | 'active' | 'steps'> & {
  preferences: PreferencesInput;
};

export interface StepPreviewAnswer {
  result: { type: string; preview: Record<string, unknown> };
}
