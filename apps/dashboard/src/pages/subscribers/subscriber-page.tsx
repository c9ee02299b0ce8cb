import { Link, useParams } from 'react-router';
import { ErrorState, Loading } from '../../ui/states';
import { SubscriberInbox } from './subscriber-inbox';
import { usePreferences, useSubscriber, useTopics, type Subscriber } from './subscribers-api';

function Profile({ subscriber }: { subscriber: Subscriber }) {
  const facts: [string, string | null | undefined][] = [
    ['Name', [subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ')],
    ['Email', subscriber.email],
    ['Phone', subscriber.phone],
    ['Locale', subscriber.locale],
    ['Time zone', subscriber.timezone],
  ];
  return (
    <dl className="facts">
      {facts.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

function Credentials({ subscriber }: { subscriber: Subscriber }) {
  const channels = subscriber.channels ?? [];
  if (channels.length === 0) return <p className="muted">No channel credentials.</p>;
  return (
    <ul>
      {channels.map((channel) => (
        <li key={channel.providerId}>
          {channel.providerId}: {channel.credentials?.deviceTokens?.length ?? 0} device tokens
          {channel.credentials?.webhookUrl ? ', a webhook URL' : ''}
        </li>
      ))}
    </ul>
  );
}

function enabledChannels(channels: Record<string, boolean>): string {
  const on = Object.entries(channels)
    .filter(([, enabled]) => enabled)
    .map(([channel]) => channel);
  return on.length ? on.join(', ') : 'none';
}

function PreferencesList({ subscriberId }: { subscriberId: string }) {
  const preferences = usePreferences(subscriberId);
  if (preferences.isPending) return <Loading label="Loading preferences" />;
  if (preferences.isError) return <ErrorState error={preferences.error} />;
  const { global, workflows } = preferences.data;
  return (
    <ul aria-label="Preferences">
      <li>
        All workflows: {global.enabled ? 'on' : 'off'} ({enabledChannels(global.channels)})
      </li>
      {workflows.map((one) => (
        <li key={one.workflow.identifier}>
          {one.workflow.name}: {one.enabled ? 'on' : 'off'} ({enabledChannels(one.channels)})
        </li>
      ))}
    </ul>
  );
}

function TopicsList({ subscriberId }: { subscriberId: string }) {
  const topics = useTopics(subscriberId);
  if (topics.isPending) return <Loading label="Loading topics" />;
  if (topics.isError) return <ErrorState error={topics.error} />;
  if (topics.data.data.length === 0) return <p className="muted">In no topic.</p>;
  return (
    <ul aria-label="Topics">
      {topics.data.data.map((subscription) => (
        <li key={subscription._id}>{subscription.topic.name ?? subscription.topic.key}</li>
      ))}
    </ul>
  );
}

/** One subscriber: profile, channel credentials, preferences, topics, and their inbox as they see it. */
export function SubscriberPage() {
  const { subscriberId = '' } = useParams();
  const subscriber = useSubscriber(subscriberId);
  return (
    <section aria-labelledby="subscriber-title">
      <p>
        <Link to="/subscribers">← Subscribers</Link>
      </p>
      <h1 id="subscriber-title">Subscriber {subscriberId}</h1>
      {subscriber.isPending ? <Loading label="Loading the subscriber" /> : null}
      {subscriber.isError ? <ErrorState error={subscriber.error} /> : null}
      {subscriber.data ? (
        <div className="subscriber-columns">
          <div>
            <Profile subscriber={subscriber.data} />
            <h2>Channel credentials</h2>
            <Credentials subscriber={subscriber.data} />
            <h2>Preferences</h2>
            <PreferencesList subscriberId={subscriberId} />
            <h2>Topics</h2>
            <TopicsList subscriberId={subscriberId} />
          </div>
          <section aria-labelledby="inbox-title">
            <h2 id="inbox-title">Inbox</h2>
            <SubscriberInbox subscriberId={subscriberId} />
          </section>
        </div>
      ) : null}
    </section>
  );
}
