import { Link, useParams } from 'react-router';
import { SubscriberCells } from '../subscribers/subscriber-cells';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useTopicSubscriptions } from './topics-api';

const COLUMNS = ['Subscriber', 'Name', 'Email', 'Joined'].map((label) => ({ label }));

/** One topic's subscribers, each linking to their page. */
export function TopicPage() {
  const { topicKey = '' } = useParams();
  const subscriptions = useTopicSubscriptions(topicKey);
  return (
    <section aria-labelledby="topic-title">
      <p>
        <Link to="/topics">← Topics</Link>
      </p>
      <h1 id="topic-title">Topic {topicKey}</h1>
      {subscriptions.isPending ? <Loading label="Loading the topic's subscribers" /> : null}
      {subscriptions.isError ? <ErrorState error={subscriptions.error} /> : null}
      {subscriptions.data?.data.length === 0 ? <Empty>No subscriber in this topic.</Empty> : null}
      {subscriptions.data && subscriptions.data.data.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {subscriptions.data.data.map(({ _id, subscriber, createdAt }) => (
            <tr key={_id}>
              <SubscriberCells subscriber={subscriber} />
              <td>{new Date(createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </section>
  );
}
