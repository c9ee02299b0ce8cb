import type { UseFormRegister } from 'react-hook-form';
import { Field, FormError, describedBy } from '../../ui/field';
import type { SaveFailure } from '../../ui/form-error';

export interface Credentials {
  email: string;
  password: string;
}

/** Email and password, with the API's messages for each and for the whole form. */
export function CredentialFields({
  register,
  failure,
  newPassword = false,
}: {
  register: UseFormRegister<Credentials>;
  failure?: SaveFailure;
  newPassword?: boolean;
}) {
  return (
    <>
      <Field id="email" label="Email" messages={failure?.fields.email}>
        <input
          id="email"
          type="email"
          autoComplete="username"
          {...describedBy('email', failure?.fields.email)}
          {...register('email', { required: true })}
        />
      </Field>
      <Field
        id="password"
        label={newPassword ? 'Password (12 characters or more)' : 'Password'}
        messages={failure?.fields.password}
      >
        <input
          id="password"
          type="password"
          autoComplete={newPassword ? 'new-password' : 'current-password'}
          {...describedBy('password', failure?.fields.password)}
          {...register('password', { required: true })}
        />
      </Field>
      <FormError message={failure?.message} />
    </>
  );
}
