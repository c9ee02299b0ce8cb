import { ConfirmButton } from '../../ui/confirm-button';
import { FormError } from '../../ui/field';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useIntegrations, type Integration } from '../integrations/integrations-api';
import { AddCredential } from './add-credential';
import { useDeleteCredentials, useSetCredentials, type ChannelEntry, type Subscriber } from './subscribers-api';

/** The entry's integration identifier, so a write lands on this entry even where the provider has several. */
function target(
  entry: ChannelEntry,
  integrations: Integration[],
): Pick<ChannelEntry, 'providerId' | 'integrationIdentifier'> {
  const identifier =
    entry.integrationIdentifier ?? integrations.find((one) => one._id === entry._integrationId)?.identifier;
  return { providerId: entry.providerId, ...(identifier ? { integrationIdentifier: identifier } : {}) };
}

function EntryControls({
  entry,
  integrations,
  subscriberId,
}: {
  entry: ChannelEntry;
  integrations: Integration[];
  subscriberId: string;
}) {
  const set = useSetCredentials(subscriberId);
  const remove = useDeleteCredentials(subscriberId);
  const tokens = entry.credentials?.deviceTokens ?? [];
  const { webhookUrl, ...withoutWebhook } = entry.credentials ?? {};
  const name = entry.integrationIdentifier ? `${entry.providerId} (${entry.integrationIdentifier})` : entry.providerId;
  return (
    <li>
      <h3>{name}</h3>
      {webhookUrl ? (
        <p>
          Webhook URL <span className="mono">{webhookUrl}</span>{' '}
          <button
            type="button"
            onClick={() =>
              set.mutate({ replace: true, entry: { ...target(entry, integrations), credentials: withoutWebhook } })
            }
          >
            Remove webhook URL
          </button>
        </p>
      ) : null}
      {tokens.length > 0 ? (
        <ul aria-label={`${name} device tokens`}>
          {tokens.map((token) => (
            <li key={token}>
              <span className="mono">{token}</span>{' '}
              <button
                type="button"
                aria-label={`Remove device token ${token}`}
                onClick={() =>
                  set.mutate({
                    replace: false,
                    entry: {
                      ...target(entry, integrations),
                      credentials: { deviceTokens: tokens.filter((one) => one !== token) },
                    },
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {!webhookUrl && tokens.length === 0 ? <p className="muted">No webhook URL or device token.</p> : null}
      <ConfirmButton
        label={`Remove all ${entry.providerId} credentials`}
        title={`Remove the subscriber’s ${entry.providerId} credentials?`}
        description="Every entry of this provider goes: its chat or push messages reach the subscriber no more."
        confirmLabel="Remove credentials"
        onConfirm={() => remove.mutate(entry.providerId)}
      />
      <FormError message={set.error?.message ?? remove.error?.message} />
    </li>
  );
}

/** The subscriber's chat and push credentials, each removable, and a form that adds one. */
export function CredentialsEditor({ subscriber }: { subscriber: Subscriber }) {
  const integrations = useIntegrations();
  if (integrations.isPending) return <Loading label="Loading integrations" />;
  if (integrations.isError) return <ErrorState error={integrations.error} />;
  const usable = integrations.data.filter((one) => one.active && (one.channel === 'chat' || one.channel === 'push'));
  const entries = subscriber.channels ?? [];
  return (
    <>
      {entries.length === 0 ? <p className="muted">No channel credentials.</p> : null}
      {entries.length > 0 ? (
        <ul aria-label="Channel credentials">
          {entries.map((entry) => (
            <EntryControls
              key={`${entry.providerId}-${entry._integrationId ?? ''}`}
              entry={entry}
              integrations={integrations.data}
              subscriberId={subscriber.subscriberId}
            />
          ))}
        </ul>
      ) : null}
      {usable.length > 0 ? (
        <AddCredential subscriber={subscriber} integrations={usable} />
      ) : (
        <Empty>Credentials are added through an active chat or push integration: this environment has none.</Empty>
      )}
    </>
  );
}
