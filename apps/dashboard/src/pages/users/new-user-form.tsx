import { useForm } from 'react-hook-form';
import type { Role } from '../../api/types';
import { Field, TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { useSave } from '../../ui/use-save';
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
  const { register, handleSubmit, reset } = useForm<NewUser>({ defaultValues: { role: 'viewer' } });
  const { failure, submit: save } = useSave(create.mutateAsync, () => reset());
  const submit = handleSubmit(save);
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-user"
      title="Add a user"
      submitLabel="Add user"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={submit}
    >
      <TextField id="new-email" label="Email" messages={fields?.email} type="email" registration={register('email')} />
      <TextField
        id="new-password"
        label="Password (12 characters or more)"
        messages={fields?.password}
        type="password"
        autoComplete="new-password"
        registration={register('password')}
      />
      <Field id="new-role" label="Role" messages={fields?.role}>
        <select id="new-role" {...register('role')}>
          {ROLES.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
      </Field>
    </InlineForm>
  );
}
