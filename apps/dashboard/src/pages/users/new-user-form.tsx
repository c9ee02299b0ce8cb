import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Role } from '../../api/types';
import { Field, FormError, describedBy } from '../../ui/field';
import { saveFailure, type SaveFailure } from '../../ui/form-error';
import { ROLES } from './roles';
import { useCreateUser } from './users-api';

interface NewUser {
  email: string;
  password: string;
  role: Role;
}

/** Adds a user; a refused save shows the API's messages by their fields and keeps what was typed. */
export function NewUserForm() {
  const create = useCreateUser();
  const [failure, setFailure] = useState<SaveFailure>();
  const { register, handleSubmit, reset } = useForm<NewUser>({ defaultValues: { role: 'viewer' } });
  const submit = handleSubmit(async (input) => {
    try {
      await create.mutateAsync(input);
      setFailure(undefined);
      reset();
    } catch (error) {
      setFailure(saveFailure(error));
    }
  });
  const fields = failure?.fields;
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-user-title" noValidate>
      <h2 id="new-user-title">Add a user</h2>
      <Field id="new-email" label="Email" messages={fields?.email}>
        <input id="new-email" type="email" {...describedBy('new-email', fields?.email)} {...register('email')} />
      </Field>
      <Field id="new-password" label="Password (12 characters or more)" messages={fields?.password}>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          {...describedBy('new-password', fields?.password)}
          {...register('password')}
        />
      </Field>
      <Field id="new-role" label="Role" messages={fields?.role}>
        <select id="new-role" {...register('role')}>
          {ROLES.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
      </Field>
      <FormError message={failure?.message} />
      <button type="submit" disabled={create.isPending}>
        Add user
      </button>
    </form>
  );
}
