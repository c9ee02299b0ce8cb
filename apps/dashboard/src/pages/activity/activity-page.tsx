import { keepPreviousData, usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { NotificationPage } from '../../api/types';
import { useSession } from '../../session/session';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { ActivityFilterForm } from './activity-filters';
import { activityView, type ActivityFilters } from './activity-request';
import { formatTime, notificationStatus } from './notification-status';

/** New notifications show without a reload; the list is one indexed query, cheap to repeat. */
const REFRESH_MS = 3_000;

const NOTIFICATION_COLUMNS = ['Time', 'Workflow', 'Subscriber', 'Channels', 'Status', 'Transaction'].map((label) => ({
  label,
}));

function NotificationRows({ page }: { page: NotificationPage }) {
  return (
    <ListTable columns={NOTIFICATION_COLUMNS}>
      {page.data.map((notification) => (
        <tr key={notification._id}>
          <td>
            <Link to={`/activity/${notification._id}`}>{formatTime(notification.createdAt)}</Link>
          </td>
          <td>{notification.template?.name ?? '—'}</td>
          <td>{notification.subscriber?.subscriberId ?? '—'}</td>
          <td>{notification.channels.join(', ')}</td>
          <td>
            <span className={`status status-${notificationStatus(notification).replace(' ', '-')}`}>
              {notificationStatus(notification)}
            </span>
          </td>
          <td className="mono">{notification.transactionId}</td>
        </tr>
      ))}
    </ListTable>
  );
}

/** Notifications of the picked environment, newest first, with the API's filters kept in the URL. */
export function ActivityPage() {
  const { environment } = useSession();
  const [search, setSearch] = useSearchParams();
  const { filters, page, query } = activityView(search, environment.id);
  // Asked for while the page renders, not after it mounted: the first render of the app takes longer
  // than the request (the list below takes over the request in flight).
  usePrefetchQuery(query);
  // Fresh for one refresh period: a page the app's first script already asked for is not asked for again.
  const list = useQuery({
    ...query,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });

  const goTo = (next: ActivityFilters, nextPage = 0) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries<string>(next)) if (value) params.set(name, value);
    if (nextPage > 0) params.set('page', String(nextPage));
    setSearch(params);
  };

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <ActivityFilterForm filters={filters} onApply={(next) => goTo(next)} />
      {list.isPending ? <Loading label="Loading notifications" /> : null}
      {list.isError ? <ErrorState error={list.error} /> : null}
      {list.data && list.data.data.length === 0 ? <Empty>No notifications match.</Empty> : null}
      {list.data && list.data.data.length > 0 ? <NotificationRows page={list.data} /> : null}
      <div className="pager">
        <button type="button" disabled={page === 0} onClick={() => goTo(filters, page - 1)}>
          Newer
        </button>
        <span>Page {page + 1}</span>
        <button type="button" disabled={!list.data?.hasMore} onClick={() => goTo(filters, page + 1)}>
          Older
        </button>
      </div>
    </section>
  );
}
