import { Link, useNavigate, useParams } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { FormError } from '../../ui/field';
import { ErrorState, Loading } from '../../ui/states';
import { IntegrationForm } from './integration-form';
import { IntegrationTestSend } from './integration-test-send';
import {
  useDeleteIntegration,
  useIntegrations,
  useProviders,
  useSetPrimary,
  useUpdateIntegration,
  type Integration,
  type Provider,
} from './integrations-api';

/** Only email and sms fail over between integrations, so only they have a primary. */
const DIRECT_CHANNELS = new Set(['email', 'sms']);
/** The channels whose steps a trigger can send through one integration by name (in_app has only Novu's). */
const TESTABLE_CHANNELS = new Set(['email', 'sms', 'chat', 'push']);

function IntegrationFacts({ integration, provider }: { integration: Integration; provider?: Provider }) {
  return (
    <dl className="facts">
      <dt>Provider</dt>
      <dd>{provider?.displayName ?? integration.providerId}</dd>
      <dt>Channel</dt>
      <dd>{integration.channel}</dd>
      <dt>Identifier</dt>
      <dd className="mono">{integration.identifier}</dd>
      <dt>Status</dt>
      <dd>
        {integration.active ? 'active' : 'inactive'}
        {integration.primary ? ', primary' : ''}
      </dd>
      {Object.entries(integration.credentials).map(([name, value]) => (
        <div key={name} className="facts-row">
          <dt>{provider?.credentials.find((field) => field.name === name)?.label ?? name}</dt>
          <dd>{String(value)}</dd>
        </div>
      ))}
      <dt>Conditions</dt>
      <dd>{integration.conditions.length ? <pre>{JSON.stringify(integration.conditions, null, 2)}</pre> : 'none'}</dd>
    </dl>
  );
}

function IntegrationActions({ integration }: { integration: Integration }) {
  const navigate = useNavigate();
  const setPrimary = useSetPrimary(integration._id);
  const remove = useDeleteIntegration(integration._id);
  return (
    <div className="actions">
      {DIRECT_CHANNELS.has(integration.channel) && !integration.primary ? (
        <button type="button" disabled={setPrimary.isPending} onClick={() => setPrimary.mutate()}>
          Make primary
        </button>
      ) : null}
      <ConfirmButton
        label="Delete"
        title={`Delete ${integration.name}?`}
        description="Messages stop going through it; a primary hands its role to the next active integration."
        confirmLabel="Delete integration"
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate('/integrations') })}
      />
      <FormError message={setPrimary.error?.message ?? remove.error?.message} />
    </div>
  );
}

/** One integration: editors change it (secrets write-only), make it primary, delete it and send a test. */
export function IntegrationPage() {
  const { integrationId = '' } = useParams();
  const integrations = useIntegrations();
  const providers = useProviders();
  const canEdit = useRoleAtLeast('editor');
  const integration = integrations.data?.find((one) => one._id === integrationId);
  const provider = providers.data?.find((one) => one.providerId === integration?.providerId);
  const update = useUpdateIntegration(integrationId);
  return (
    <section aria-labelledby="integration-title">
      <p>
        <Link to="/integrations">← Integrations</Link>
      </p>
      <h1 id="integration-title">{integration?.name ?? 'Integration'}</h1>
      {integrations.isPending || providers.isPending ? <Loading label="Loading the integration" /> : null}
      {integrations.isError ? <ErrorState error={integrations.error} /> : null}
      {providers.isError ? <ErrorState error={providers.error} /> : null}
      {integrations.data && !integration ? <ErrorState error={new Error('No such integration here')} /> : null}
      {integration ? <IntegrationFacts integration={integration} provider={provider} /> : null}
      {integration && canEdit ? <IntegrationActions integration={integration} /> : null}
      {integration && provider && canEdit ? (
        <section className="panel" aria-labelledby="integration-edit-title">
          <h2 id="integration-edit-title">Edit</h2>
          {/* Keyed by update time: after a save the form starts again from what is stored, secrets emptied. */}
          <IntegrationForm
            key={integration.updatedAt}
            provider={provider}
            integration={integration}
            submitLabel="Save integration"
            busy={update.isPending}
            save={update.mutateAsync}
            onSaved={() => undefined}
          />
          {update.isSuccess ? <p role="status">Saved.</p> : null}
        </section>
      ) : null}
      {integration && canEdit && TESTABLE_CHANNELS.has(integration.channel) ? (
        <IntegrationTestSend integration={integration} />
      ) : null}
    </section>
  );
}
