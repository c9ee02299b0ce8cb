import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ErrorState, Loading } from '../../ui/states';
import { IntegrationForm } from './integration-form';
import { CHANNELS, useCreateIntegration, useProviders } from './integrations-api';

/** Adds an integration: its provider first, whose credential fields the form then asks for. */
export function NewIntegrationPage() {
  const providers = useProviders();
  const create = useCreateIntegration();
  const navigate = useNavigate();
  const canEdit = useRoleAtLeast('editor');
  const [providerId, setProviderId] = useState('');
  const provider = providers.data?.find((one) => one.providerId === providerId);
  return (
    <section aria-labelledby="new-integration-title">
      <p>
        <Link to="/integrations">← Integrations</Link>
      </p>
      <h1 id="new-integration-title">New integration</h1>
      {!canEdit ? (
        <p className="state state-error" role="alert">
          Adding an integration is for editors.
        </p>
      ) : null}
      {providers.isPending ? <Loading label="Loading providers" /> : null}
      {providers.isError ? <ErrorState error={providers.error} /> : null}
      {canEdit && providers.data ? (
        <div className="field">
          <label htmlFor="integration-provider">Provider</label>
          <select id="integration-provider" value={providerId} onChange={(event) => setProviderId(event.target.value)}>
            <option value="">Choose a provider</option>
            {CHANNELS.map((channel) => (
              <optgroup key={channel} label={channel}>
                {providers.data
                  .filter((one) => one.channel === channel)
                  .map((one) => (
                    <option key={one.providerId} value={one.providerId}>
                      {one.displayName}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </div>
      ) : null}
      {canEdit && provider ? (
        <IntegrationForm
          key={provider.providerId}
          provider={provider}
          submitLabel="Create integration"
          busy={create.isPending}
          save={(input) => create.mutateAsync({ ...input, providerId: provider.providerId, channel: provider.channel })}
          onSaved={(created) => navigate(`/integrations/${created._id}`)}
        />
      ) : null}
    </section>
  );
}
