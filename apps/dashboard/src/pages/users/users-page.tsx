import { useState } from 'react';
import type { DashboardUser, Role } from '../../api/types';
import { useSession } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { FormError } from '../../ui/field';
import { ListTable } from '../../ui/list-table';
import { ErrorState, Loading } from '../../ui/states';
import { NewUserForm } from './new-user-form';
import { ROLES } from './roles';
import { useRemoveUser, useSetRole, useUsers } from './users-api';

const USER_COLUMNS = [{ label: 'Email' }, { label: 'Role' }, { label: 'Added' }, { label: 'Actions', hidden: true }];

function UserRow({ user, onError }: { user: DashboardUser; onError: (error: unknown) => void }) {
  const setRole = useSetRole();
  const remove = useRemoveUser();
  const isSelf = useSession().user.id === user.id;
  return (
    <tr>
      <td>{user.email}</td>
      <td>
        <select
          aria-label={`Role of ${user.email}`}
          value={user.role}
          disabled={setRole.isPending}
          onChange={(event) => setRole.mutate({ id: user.id, role: event.target.value as Role }, { onError })}
        >
          {ROLES.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
      </td>
      <td>{new Date(user.createdAt).toLocaleDateString()}</td>
      <td>
        {isSelf ? (
          <span className="muted">you</span>
        ) : (
          <ConfirmButton
            label={<>Remove</>}
            title={`Remove ${user.email}?`}
            description="Their sessions end at once; they can no longer sign in."
            confirmLabel="Remove user"
            onConfirm={() => remove.mutate(user.id, { onError })}
          />
        )}
      </td>
    </tr>
  );
}

/** The organization's users and their roles (admins only: the API refuses the others). */
export function UsersPage() {
  const users = useUsers();
  const [failure, setFailure] = useState<string>();
  const onError = (error: unknown) => setFailure(error instanceof Error ? error.message : 'The change failed');
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      {users.isPending ? <Loading label="Loading users" /> : null}
      {users.isError ? <ErrorState error={users.error} /> : null}
      <FormError message={failure} />
      {users.data ? (
        <ListTable columns={USER_COLUMNS}>
          {users.data.map((user) => (
            <UserRow key={user.id} user={user} onError={onError} />
          ))}
        </ListTable>
      ) : null}
      <NewUserForm />
    </section>
  );
}
