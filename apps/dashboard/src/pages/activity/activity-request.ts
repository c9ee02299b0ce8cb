import { api, queryString } from '../../api/client';
import type { NotificationPage } from '../../api/types';

const PAGE_SIZE = 20;

/** The filters of `GET /v1/notifications`, as they stand in the page's URL (so a filtered view is a link). */
// A type, not an interface: Object.entries reads it as a record of strings.
export type ActivityFilters = {
  workflow: string;
  channel: string;
  status: string;
  subscriberId: string;
  transactionId: string;
  after: string;
  before: string;
};

/** The filters read one by one, e.g. from the URL's search parameters. */
export function filtersFrom(read: (name: keyof ActivityFilters) => string): ActivityFilters {
  return {
    workflow: read('workflow'),
    channel: read('channel'),
    status: read('status'),
    subscriberId: read('subscriberId'),
    transactionId: read('transactionId'),
    after: read('after'),
    before: read('before'),
  };
}

/** A datetime-local value (the browser's time zone) as the ISO 8601 instant the API filters by. */
function isoOrUndefined(local: string): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

function notificationsPath(filters: ActivityFilters, page: number): string {
  return `/v1/notifications${queryString({
    templates: filters.workflow ? [filters.workflow] : undefined,
    channels: filters.channel ? [filters.channel] : undefined,
    statuses: filters.status ? [filters.status] : undefined,
    subscriberIds: filters.subscriberId ? [filters.subscriberId] : undefined,
    transactionId: filters.transactionId,
    after: isoOrUndefined(filters.after),
    before: isoOrUndefined(filters.before),
    page,
    limit: PAGE_SIZE,
  })}`;
}

/**
 * What Activity shows for its URL's search parameters in an environment: the filters, the page and the query
 * for them. The app's first script asks for the same query before the app renders (early-requests.ts).
 */
export function activityView(search: URLSearchParams, environmentId: string) {
  const filters = filtersFrom((name) => search.get(name) ?? '');
  const page = Number(search.get('page') ?? 0);
  const path = notificationsPath(filters, page);
  return {
    filters,
    page,
    query: {
      queryKey: ['notifications', environmentId, path],
      queryFn: () => api<NotificationPage>('GET', path, undefined, { 'X-Environment-Id': environmentId }),
    },
  };
}
