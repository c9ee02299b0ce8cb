import { useRoleAtLeast } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { ListTable } from '../../ui/list-table';
import { ErrorState, Loading } from '../../ui/states';
import { ApiKeysSection } from './api-keys-section';
import { HmacSwitch } from './hmac-switch';
import { useDeleteEnvironment, useEnvironments, type Environment } from './environments-api';
import { NewEnvironmentForm } from './new-environment-form';
import { RetentionForm } from './retention-form';

const COLUMNS = ['Name', 'Application identifier', 'HMAC required', 'Retention', 'Actions'].map((label) => ({
  label,
  hidden: label === 'Actions',
}));
/** The two environments every organization keeps. */
const PERMANENT = new Set(['Development', 'Production']);

function EnvironmentRow({ environment, isAdmin }: { environment: Environment; isAdmin: boolean }) {
  const remove = useDeleteEnvironment();
  const { retention } = environment;
  return (
    <tr>
      <td>{environment.name}</td>
      <td className="mono">{environment.identifier}</td>
      <td>{isAdmin ? <HmacSwitch environment={environment} /> : environment.requireHmac ? 'yes' : 'no'}</td>
      <td>
        {isAdmin ? (
          <RetentionForm environment={environment} />
        ) : (
          `activity ${retention.activityDays} days, messages ${retention.messagesDays} days`
        )}
      </td>
      <td>
        {isAdmin && !PERMANENT.has(environment.name) ? (
          <ConfirmButton
            label={<>Delete</>}
            title={`Delete ${environment.name}?`}
            description="Its workflows, subscribers, activity and API keys go with it."
            confirmLabel="Delete environment"
            onConfirm={() => remove.mutate(environment._id)}
          />
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The organization's environments, their public identifiers, HMAC requirement and retention; admins create and
 * change them, and manage the picked environment's API keys (which the API lists to admins only).
 */
export function EnvironmentsPage() {
  const environments = useEnvironments();
  const isAdmin = useRoleAtLeast('admin');
  return (
    <section aria-labelledby="environments-title">
      <h1 id="environments-title">Environments &amp; API keys</h1>
      {environments.isPending ? <Loading label="Loading environments" /> : null}
      {environments.isError ? <ErrorState error={environments.error} /> : null}
      {environments.data ? (
        <ListTable columns={COLUMNS}>
          {environments.data.map((environment) => (
            <EnvironmentRow key={environment._id} environment={environment} isAdmin={isAdmin} />
          ))}
        </ListTable>
      ) : null}
      {isAdmin ? <NewEnvironmentForm /> : null}
      {isAdmin ? <ApiKeysSection /> : null}
    </section>
  );
}
