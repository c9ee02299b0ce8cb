import { Link } from 'react-router';

interface Named {
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** A subscriber's first cells in a list row: the id (a link to their page), the name, the address. */
export function SubscriberCells({ subscriber }: { subscriber: Named }) {
  return (
    <>
      <td>
        <Link to={`/subscribers/${encodeURIComponent(subscriber.subscriberId)}`}>{subscriber.subscriberId}</Link>
      </td>
      <td>{[subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ') || '—'}</td>
      <td>{subscriber.email ?? '—'}</td>
    </>
  );
}
