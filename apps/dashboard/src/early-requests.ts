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
  ? session.then((sessionAnswer) => {
      const environment = sessionAnswer ? initialEnvironment(sessionAnswer.environments) : undefined;
      if (!environment) return undefined;
      const { query } = activityView(activitySearchAtStart, environment.id);
      const answer = query.queryFn();
      answer.catch(() => undefined);
      return { query, answer };
    })
  : undefined;
// A failure is the page's to show, through the query that takes the request over; not an unhandled rejection.
firstActivityPage?.catch(() => undefined);

/** Hands the requests in flight to the app's queries, which would otherwise send them again. */
export function seedQueries(client: QueryClient): void {
  void client.prefetchQuery({ queryKey: SESSION_KEY, queryFn: () => session, retry: false });
  void firstActivityPage?.then((page) => {
    if (!page) return;
    // The answer in flight first; a retry after a failure asks again.
    let inFlight: typeof page.answer | undefined = page.answer;
    void client.prefetchQuery({
      queryKey: page.query.queryKey,
      queryFn: () => {
        const answer = inFlight ?? page.query.queryFn();
        inFlight = undefined;
        return answer;
      },
    });
  });
}
