import { api, ApiError } from '../api/client';
import type { SessionAnswer } from '../api/types';

export const SESSION_KEY = ['session'] as const;

/** The session answer, or null when the browser holds no valid session (the server said 401). */
export async function fetchSession(): Promise<SessionAnswer | null> {
  try {
    return await api<SessionAnswer>('GET', '/v1/dashboard/session');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
