import { ApiError } from '../api/client';

/**
 * The text of a JSON editor as the object the API takes, or a refusal naming the field, shown next to it
 * like the API's own 422 (the request is not sent).
 */
export function parsedJsonObject(text: string, field: string): Record<string, unknown> {
  const refused = (message: string) => new ApiError(422, message, { [field]: [message] });
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '{}');
  } catch {
    throw refused(`${field} must be JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw refused(`${field} must be a JSON object`);
  return value as Record<string, unknown>;
}
