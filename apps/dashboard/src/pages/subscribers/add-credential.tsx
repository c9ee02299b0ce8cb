import { useState } from 'react';
import { Field, describedBy } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { useSave } from '../../ui/use-save';
import type { Integration } from '../integrations/integrations-api';
import { useSetCredentials, type Subscriber } from './subscribers-api';

/** Adds a device token (push) or sets the webhook URL (chat) through an active integration of the environment. */
export function AddCredential({ subscriber, integrations }: { subscriber: Subscriber; integrations: Integration[] }) {
  const set = useSetCredentials(subscriber.subscriberId);
  const [integrationId, setIntegrationId] = useState(integrations[0]?._id ?? '');
  const [value, setValue] = useState('');
  const integration = integrations.find((one) => one._id === integrationId);
  const push = integration?.channel === 'push';
  const { failure, submit } = useSave(
    async () => {
      if (!integration) return;
      const stored = subscriber.channels?.find((entry) => entry._integrationId === integration._id);
      const tokens = stored?.credentials?.deviceTokens ?? [];
      await set.mutateAsync({
        replace: false,
        entry: {
          providerId: integration.providerId,
          integrationIdentifier: integration.identifier,
          credentials: push ? { deviceTokens: [...tokens, value.trim()] } : { webhookUrl: value.trim() },
        },
      });
    },
    () => setValue(''),
  );
  const field = push ? 'credentials.deviceTokens' : 'credentials.webhookUrl';
  const messages = failure?.fields[field] ?? failure?.fields[`${field}[0]`];
  return (
    <InlineForm
      id="add-credential"
      title="Add a credential"
      submitLabel={push ? 'Add device token' : 'Set webhook URL'}
      busy={set.isPending}
      error={failure?.message}
      onSubmit={async (event) => {
        event.preventDefault();
        await submit(undefined);
      }}
    >
      <Field id="credential-integration" label="Integration">
        <select
          id="credential-integration"
          value={integrationId}
          onChange={(event) => setIntegrationId(event.target.value)}
        >
          {integrations.map((one) => (
            <option key={one._id} value={one._id}>
              {one.name} ({one.providerId}, {one.channel})
            </option>
          ))}
        </select>
      </Field>
      <Field id="credential-value" label={push ? 'Device token' : 'Webhook URL'} messages={messages}>
        <input
          id="credential-value"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          {...describedBy('credential-value', messages)}
        />
      </Field>
    </InlineForm>
  );
}
