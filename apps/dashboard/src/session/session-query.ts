import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { SessionAnswer } from '../api/types';
import { fetchSession, SESSION_KEY } from './session-request';

/** The session answer, or null when the browser holds no valid session (the server said 401). */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: fetchSession,
    retry: false,
    staleTime: 60_000,
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return async (email: string, password: string): Promise<void> => {
    const answer = await api<SessionAnswer>('POST', '/v1/dashboard/session', { email, password });
    // Another user's cached pages must not show for a moment.
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    client.setQueryData(SESSION_KEY, answer);
  };
}
