import { Link } from 'react-router';

/** After a test send: where to follow it. */
export function SentNotice({ transactionId }: { transactionId?: string }) {
  if (!transactionId) return null;
  return (
    <p role="status">
      Sent: <Link to={`/activity?transactionId=${encodeURIComponent(transactionId)}`}>see it in Activity</Link>
    </p>
  );
}
