/**
 * One error vocabulary: domain code → HTTP status. Use cases throw DomainError with a stable code;
 * the global exception filter maps it through this table (no per-controller try/catch).
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 422,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  SUBSCRIBER_NOT_FOUND: 404,
  WORKFLOW_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  TOPIC_NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_IN_FLIGHT: 409,
  PRECONDITION_FAILED: 412,
  IDEMPOTENCY_BODY_MISMATCH: 422,
  NO_ACTIVE_INTEGRATION: 400,
  CRITICAL_WORKFLOW: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, { messages: string[]; value?: unknown }>;

export class DomainError extends Error {
  /** The existing resource a `failIfExists` conflict is about; its fields join the error body. */
  existing?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  static validation(field: string, message: string, value?: unknown): DomainError {
    return new DomainError('VALIDATION_FAILED', message, { [field]: { messages: [message], value } });
  }

  /**
   * 409 for a create with `failIfExists` whose resource exists: the body is that resource with the
   * error fields, which is how Novu's clients read this conflict (a typed error holding the resource).
   */
  static alreadyExists(message: string, existing: object): DomainError {
    const error = new DomainError('CONFLICT', message);
    error.existing = { ...existing };
    return error;
  }
}
