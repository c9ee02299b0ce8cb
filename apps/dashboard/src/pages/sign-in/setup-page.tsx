import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { useSignIn } from '../../session/session-query';
import { CredentialFields, type Credentials } from './credential-fields';
import { useSave } from '../../ui/use-save';

/** The token of the link the first boot printed: in the fragment, which the browser never sends. */
function setupToken(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/** The page the first boot's setup link opens: it creates the first admin and signs them in. */
export function SetupPage() {
  const [token] = useState(setupToken);
  const signIn = useSignIn();
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<Credentials>();
  const { failure, submit } = useSave(
    async ({ email, password }: Credentials) => {
      await api('POST', '/v1/dashboard/setup', { token, email, password });
      await signIn(email, password);
    },
    () => navigate('/activity', { replace: true }),
  );

  return (
    <main className="sign-in">
      <h1>Create the first admin</h1>
      {token ? null : (
        <p className="form-error" role="alert">
          This page needs the setup link the service printed at its first boot (it ends in #token=…).
        </p>
      )}
      <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
        <CredentialFields register={register} failure={failure} newPassword />
        <button type="submit" disabled={formState.isSubmitting || !token}>
          Create admin and sign in
        </button>
      </form>
    </main>
  );
}
