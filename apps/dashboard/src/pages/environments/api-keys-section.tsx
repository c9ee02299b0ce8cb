import { useState } from 'react';
import { useSession } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type CreatedApiKey } from './api-keys-api';
import { NewApiKey } from './new-api-key';

const COLUMNS = ['Key', 'Created', 'Actions'].map((label) => ({ label, hidden: label === 'Actions' }));

/**
 * The picked environment's API keys, for admins (the only role the API lists them to): a key is shown once,
 * when created; the list has only its first characters.
 */
export function ApiKeysSection() {
  const { environment } = useSession();
  const keys = useApiKeys(environment.id);
  const create = useCreateApiKey(environment.id);
  const revoke = useRevokeApiKey(environment.id);
  const [created, setCreated] = useState<CreatedApiKey>();
  const failure = create.error ?? revoke.error;
  return (
    <section aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys of {environment.name}</h2>
      {keys.isPending ? <Loading label="Loading API keys" /> : null}
      {keys.isError ? <ErrorState error={keys.error} /> : null}
      {keys.data?.length === 0 ? (
        <Empty>{environment.name} has no API key: requests need one to reach it.</Empty>
      ) : null}
      {keys.data?.length ? (
        <ListTable columns={COLUMNS}>
          {keys.data.map((key) => (
            <tr key={key._id}>
              <td className="mono">{key.prefix}…</td>
              <td>{new Date(key.createdAt).toLocaleString()}</td>
              <td>
                <ConfirmButton
                  label={<>Revoke {key.prefix}…</>}
                  title={`Revoke the key ${key.prefix}…?`}
                  description="Every request that sends it is refused from now on. This cannot be undone."
                  confirmLabel="Revoke key"
                  onConfirm={() => revoke.mutate(key._id)}
                />
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      <button
        type="button"
        disabled={create.isPending}
        onClick={() => create.mutate(undefined, { onSuccess: setCreated })}
      >
        Create API key
      </button>
      {created ? <NewApiKey created={created} /> : null}
      {failure ? (
        <p className="field-error" role="alert">
          {failure.message}
        </p>
      ) : null}
    </section>
  );
}
