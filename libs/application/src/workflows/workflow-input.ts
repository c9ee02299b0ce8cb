/** The methods an http_request step may call its url with. */
export const HTTP_REQUEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpRequestMethod = (typeof HTTP_REQUEST_METHODS)[number];

/**
 * A step as the api hands it over once validated (its StepDefinition DTO); the writer stores it as
 * given, filling the defaults.
 */
export interface StepInput {
  _id?: string;
  name?: string;
  active?: boolean;
  shouldStopOnFail?: boolean;
  template: { type: string; cta?: unknown };
  filters?: object[];
  metadata?: Record<string, unknown>;
  replyCallback?: object;
  variants?: StepInput[];
  /** Written by /v2/workflows: kept on the stored step beside the template derived from them. */
  stepId?: string;
  controlValues?: Record<string, unknown>;
}

/** Who authors a workflow: the v2 API, the v1 API, or a file of WORKFLOWS_DIR. */
export type WorkflowOrigin = 'novu-cloud' | 'novu-cloud-v1' | 'external';

/** A workflow as the api hands it over once validated (its WorkflowDefinition DTO). */
export interface WorkflowInput {
  name: string;
  identifier?: string;
  description?: string;
  active?: boolean;
  draft?: boolean;
  critical?: boolean;
  preferenceSettings?: object;
  tags?: string[];
  data?: Record<string, unknown>;
  notificationGroupId?: string;
  steps: StepInput[];
  origin?: WorkflowOrigin;
  /** A JSON Schema of the trigger payload, checked at trigger when validatePayload is on; null clears it. */
  payloadSchema?: Record<string, unknown> | null;
  validatePayload?: boolean;
  /** Whether `{{t.key}}` in its steps is looked up in its translations. */
  isTranslationEnabled?: boolean;
  /** Novu's v2 preferences (`user`, `workflow`); null clears them. */
  preferences?: Record<string, unknown> | null;
}
