import { STATUS_CODES } from 'node:http';
import type { FieldErrors } from '#common';

/** The one body every error answer has. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  path: string;
  timestamp: string;
  errors?: FieldErrors;
  errorId?: string;
}

/** The status's standard reason phrase; a status without one reads as its class's usual error. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}
