import { ApiError, type FieldMessages } from '../api/client';

/** What a failed save shows: the API's messages by field, and a line for the rest. */
export interface SaveFailure {
  fields: FieldMessages;
  message: string;
}

export function saveFailure(error: unknown): SaveFailure {
  if (error instanceof ApiError) return { fields: error.fields, message: error.message };
  return { fields: {}, message: error instanceof Error ? error.message : 'The save failed' };
}
