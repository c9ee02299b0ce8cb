/** What the API's error body says about one field of a 422: `{ "email": ["email must be an email"] }`. */
export type FieldMessages = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldMessages = {},
  ) {
    super(message);
  }
}

interface ErrorBody {
  message?: string;
  errors?: Record<string, { messages?: string[] }>;
}

/** The session's headers: the CSRF token every write carries and the environment the UI has picked. */
const context: { csrfToken?: string; environmentId?: string; onSignedOut?: () => void } = {};

export function setSessionHeaders(csrfToken: string | undefined, environmentId: string | undefined): void {
  context.csrfToken = csrfToken;
  context.environmentId = environmentId;
}

/** Called when the server no longer knows the session (expired, revoked, signed out elsewhere). */
export function onSignedOut(handler: () => void): void {
  context.onSignedOut = handler;
}

function fieldMessages(body: ErrorBody): FieldMessages {
  const fields: FieldMessages = {};
  for (const [name, error] of Object.entries(body.errors ?? {})) fields[name] = error.messages ?? [];
  return fields;
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  return new ApiError(response.status, body.message ?? response.statusText, fieldMessages(body));
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the service's HTTP API with the session cookie, as any client makes it: the same routes, the
 * same error body. A 401 means the session is gone, and the app goes back to its login page.
 */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && context.csrfToken) headers['X-CSRF-Token'] = context.csrfToken;
  if (context.environmentId) headers['X-Environment-Id'] = context.environmentId;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 && !path.startsWith('/v1/dashboard/session')) context.onSignedOut?.();
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A query string from the filters that are set; arrays repeat their key, as the API reads them. */
export function queryString(params: Record<string, string | number | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, item);
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
