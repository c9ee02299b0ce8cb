import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { CredentialFields, type Credentials } from './credential-fields';
import { useSave } from '../../ui/use-save';
import { useSessionQuery, useSignIn } from '../../session/session-query';

/** Where to go after signing in: back to the deep link that sent the visitor here, else Activity. */
function useReturnPath(): string {
  const state = useLocation().state as { from?: string } | null;
  return state?.from && state.from !== '/login' ? state.from : '/activity';
}

export function LoginPage() {
  const session = useSessionQuery();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const returnPath = useReturnPath();
  const { register, handleSubmit, formState } = useForm<Credentials>();
  const { failure, submit } = useSave(
    ({ email, password }: Credentials) => signIn(email, password),
    () => navigate(returnPath, { replace: true }),
  );

  if (session.data) return <Navigate to={returnPath} replace />;

  return (
    <main className="sign-in">
      <h1>Sign in to the dashboard</h1>
      <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
        <CredentialFields register={register} failure={failure} />
        <button type="submit" disabled={formState.isSubmitting}>
          Sign in
        </button>
      </form>
      <p className="hint">
        First time? Open the setup link the service printed at its first boot, or run{' '}
        <code>npm run cli -- user create --email you@example.com --role admin</code>. <Link to="/setup">Setup</Link>
      </p>
    </main>
  );
}
