import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { api, onSignedOut, setSessionHeaders } from '../api/client';
import { Loading, ErrorState } from '../ui/states';
import { initialEnvironment, rememberEnvironment } from './environment-choice';
import { SessionContext, type Session } from './session';
import { useSessionQuery } from './session-query';
import { SESSION_KEY } from './session-request';

/**
 * The pages behind the login: without a session, the login page (which comes back here after); with one, its
 * CSRF token and the picked environment go on every API call.
 */
export function SignedIn() {
  const location = useLocation();
  const client = useQueryClient();
  const session = useSessionQuery();
  const [environmentId, setEnvironmentId] = useState<string>();

  useEffect(() => {
    onSignedOut(() => client.setQueryData(SESSION_KEY, null));
  }, [client]);

  const answer = session.data;
  const environment = answer
    ? (answer.environments.find((one) => one.id === environmentId) ?? initialEnvironment(answer.environments))
    : undefined;
  // During render, not in an effect: the pages below start their queries in their own effects, which run first.
  setSessionHeaders(answer?.csrfToken, environment?.id);

  const value = useMemo<Session | undefined>(
    () =>
      answer && environment
        ? {
            user: answer.user,
            environments: answer.environments,
            environment,
            chooseEnvironment: (id) => {
              rememberEnvironment(id);
              setEnvironmentId(id);
            },
            signOut: async () => {
              await api('DELETE', '/v1/dashboard/session');
              client.clear();
              client.setQueryData(SESSION_KEY, null);
            },
          }
        : undefined,
    [answer, environment, client],
  );

  if (session.isPending) return <Loading label="Checking your session" />;
  if (session.isError) return <ErrorState error={session.error} />;
  if (!answer) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (!value) return <ErrorState error={new Error('Your organization has no environment')} />;
  return (
    <SessionContext.Provider value={value}>
      <Outlet />
    </SessionContext.Provider>
  );
}
