import type { QueryClient } from '@tanstack/react-query';
import { activityView } from './pages/activity/activity-request';
import { initialEnvironment } from './session/environment-choice';
import { fetchSession, SESSION_KEY } from './session/session-request';

/**
 * The requests of the first page, sent as soon as the app's script runs, before React and the pages are even
 * evaluated (main.tsx imports this module first): rendering the app takes longer than they take to answer.
 * The session answer is the one index.html preloads.
 */
const session = fetchSession();

/** The search parameters of Activity when the URL shows it (the root redirects to it, without them). */
function activitySearch(): URLSearchParams | undefined {
  const path = location.pathname.replace(/\/+$/, '').toLowerCase();
  if (path === '/dashboard') return new URLSearchParams();
  if (path === '/dashboard/activity') return new URLSearchParams(location.search);
  return undefined;
}

/**
 * Activity's first page, in the environment the app will pick from the session answer, so its query key is
 * the one the page asks for: the page then takes this request over instead of sending its own.
 */
const activitySearchAtStart = activitySearch();
const firstActivityPage = activitySearchAtStart
  ? session.then((answer) => {
      const environment = answer ? initialEnvironment(answer.environments) : undefined;
      if (!environment) return undefined;
      const { query } = activityView(activitySearchAtStart, environment.id);
      return { queryKey: query.queryKey, data: query.queryFn() };
    })
  : undefined;
// A failure shows where the page uses the answer, through its query.
firstActivityPage?.catch(() => undefined);

/** Hands the requests in flight to the app's queries, which would otherwise send them again. */
export function seedQueries(client: QueryClient): void {
  void client.prefetchQuery({ queryKey: SESSION_KEY, queryFn: () => session, retry: false });
  void firstActivityPage?.then((page) => {
    if (page) void client.prefetchQuery({ queryKey: page.queryKey, queryFn: () => page.data, retry: false });
  });
}
