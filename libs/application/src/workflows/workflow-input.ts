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
}

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
}
