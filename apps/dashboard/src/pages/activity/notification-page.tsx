import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, queryString } from '../../api/client';
import type { Message, NotificationItem, NotificationJob } from '../../api/types';
import { useSession } from '../../session/session';
import { ErrorState, Loading } from '../../ui/states';
import { formatTime, notificationStatus } from './notification-status';
import { RenderedMessage } from './rendered-message';

/** Until every job has settled the timeline keeps filling in. */
const REFRESH_MS = 2_000;

function JobTimeline({ job, messages }: { job: NotificationJob; messages: Message[] }) {
  return (
    <li className="job">
      <h3>
        {job.type} <span className={`status status-${job.status}`}>{job.status}</span>
        <span className="muted"> · {job.providerId}</span>
      </h3>
      <ol className="details">
        {job.executionDetails.map((detail) => (
          <li key={detail._id}>
            <time dateTime={detail.createdAt}>{formatTime(detail.createdAt)}</time>{' '}
            <span className={`status status-${detail.status.toLowerCase()}`}>{detail.status}</span> {detail.detail}
            {detail.raw ? (
              <details>
                <summary>Provider answer{detail.providerId ? ` (${detail.providerId})` : ''}</summary>
                <pre>{detail.raw}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {messages.map((message) => (
        <RenderedMessage key={message._id} message={message} />
      ))}
    </li>
  );
}

/**
 * The messages the notification produced, by channel: the rendered content each step sent. Read again while
 * its jobs run (a step still to come has no message yet) and once more when they have settled.
 */
function useMessages(notification: NotificationItem | undefined) {
  const { environment } = useSession();
  const transactionId = notification?.transactionId;
  const status = notification && notificationStatus(notification);
  return useQuery({
    queryKey: ['messages', environment.id, transactionId, status],
    queryFn: () =>
      api<{ data: Message[] }>('GET', `/v1/messages${queryString({ transactionId, limit: 100 })}`).then((page) =>
        page.data.filter((message) => message._notificationId === notification?._id),
      ),
    enabled: Boolean(transactionId),
    refetchInterval: status === 'in progress' ? REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
}

export function NotificationPage() {
  const { notificationId = '' } = useParams();
  const { environment } = useSession();
  const notification = useQuery({
    queryKey: ['notification', environment.id, notificationId],
    queryFn: () => api<NotificationItem>('GET', `/v1/notifications/${encodeURIComponent(notificationId)}`),
    refetchInterval: (query) =>
      query.state.data && notificationStatus(query.state.data) === 'in progress' ? REFRESH_MS : false,
  });
  const messages = useMessages(notification.data);
  const item = notification.data;

  return (
    <section aria-labelledby="notification-title">
      <p>
        <Link to="/activity">← Activity</Link>
      </p>
      <h1 id="notification-title">Notification {item ? `· ${item.template?.name ?? ''}` : ''}</h1>
      {notification.isPending ? <Loading label="Loading the notification" /> : null}
      {notification.isError ? <ErrorState error={notification.error} /> : null}
      {item ? (
        <>
          <dl className="facts">
            <dt>Subscriber</dt>
            <dd>{item.subscriber?.subscriberId ?? '—'}</dd>
            <dt>Transaction</dt>
            <dd className="mono">{item.transactionId}</dd>
            <dt>Created</dt>
            <dd>{formatTime(item.createdAt)}</dd>
            <dt>Status</dt>
            <dd>{notificationStatus(item)}</dd>
          </dl>
          <h2>Timeline</h2>
          <ol className="timeline">
            {item.jobs.map((job) => (
              <JobTimeline
                key={job._id}
                job={job}
                messages={(messages.data ?? []).filter((message) => message.channel === job.type)}
              />
            ))}
          </ol>
          <h2>Payload</h2>
          <pre>{JSON.stringify(item.payload, null, 2)}</pre>
        </>
      ) : null}
    </section>
  );
}
