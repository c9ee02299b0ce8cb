import { Link, useParams } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ErrorState, Loading } from '../../ui/states';
import { CredentialsEditor } from './credentials-editor';
import { PreferencesSection } from './preferences-section';
import { ProfileForm } from './profile-form';
import { SubscriberInbox } from './subscriber-inbox';
import { useSubscriber, useTopics, type Subscriber } from './subscribers-api';

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
        <li key={`${channel.providerId}-${channel._integrationId ?? ''}`}>
          {channel.providerId}: {channel.credentials?.deviceTokens?.length ?? 0} device tokens
          {channel.credentials?.webhookUrl ? ', a webhook URL' : ''}
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

/**
 * One subscriber: profile, channel credentials, preferences, topics, and their inbox as they see it. Editors
 * and admins change the first three; viewers read them.
 */
export function SubscriberPage() {
  const { subscriberId = '' } = useParams();
  const subscriber = useSubscriber(subscriberId);
  const canEdit = useRoleAtLeast('editor');
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
            {canEdit ? <ProfileForm subscriber={subscriber.data} /> : null}
            <h2>Channel credentials</h2>
            {canEdit ? (
              <CredentialsEditor subscriber={subscriber.data} />
            ) : (
              <Credentials subscriber={subscriber.data} />
            )}
            <h2>Preferences</h2>
            <PreferencesSection subscriberId={subscriberId} canEdit={canEdit} />
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
