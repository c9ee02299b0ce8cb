import { Link } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { CHANNELS, useIntegrations, useProviders, type Integration } from './integrations-api';

const COLUMNS = ['Name', 'Identifier', 'Provider', 'Status', 'Primary'].map((label) => ({ label }));

function ChannelIntegrations({ channel, integrations }: { channel: string; integrations: Integration[] }) {
  const providers = useProviders();
  const displayName = (providerId: string) =>
    providers.data?.find((provider) => provider.providerId === providerId)?.displayName ?? providerId;
  return (
    <section aria-labelledby={`channel-${channel}`}>
      <h2 id={`channel-${channel}`}>{channel}</h2>
      {integrations.length === 0 ? <Empty>No {channel} integration.</Empty> : null}
      {integrations.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {integrations.map((integration) => (
            <tr key={integration._id}>
              <td>
                <Link to={`/integrations/${integration._id}`}>{integration.name}</Link>
              </td>
              <td className="mono">{integration.identifier}</td>
              <td>{displayName(integration.providerId)}</td>
              <td>{integration.active ? 'active' : 'inactive'}</td>
              <td>{integration.primary ? 'primary' : ''}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
    </section>
  );
}

/** The picked environment's integrations, channel by channel; editors add them. */
export function IntegrationsPage() {
  const integrations = useIntegrations();
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="integrations-title">
      <h1 id="integrations-title">Integrations</h1>
      {canEdit ? (
        <p>
          <Link to="/integrations/new">New integration</Link>
        </p>
      ) : null}
      {integrations.isPending ? <Loading label="Loading integrations" /> : null}
      {integrations.isError ? <ErrorState error={integrations.error} /> : null}
      {integrations.data
        ? CHANNELS.map((channel) => (
            <ChannelIntegrations
              key={channel}
              channel={channel}
              integrations={integrations.data.filter((integration) => integration.channel === channel)}
            />
          ))
        : null}
    </section>
  );
}
