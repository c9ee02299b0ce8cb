import { useUpdateHmac, type Environment } from './environments-api';

/** Turning it on ends the environment's inbox sessions that did not prove their subscriber with a hash. */
export function HmacSwitch({ environment }: { environment: Environment }) {
  const update = useUpdateHmac();
  const next = !environment.requireHmac;
  return (
    <>
      {environment.requireHmac ? 'yes' : 'no'}{' '}
      <button
        type="button"
        disabled={update.isPending}
        aria-label={`${next ? 'Require' : 'Stop requiring'} HMAC in ${environment.name}`}
        onClick={() => update.mutate({ id: environment._id, requireHmac: next })}
      >
        {next ? 'Require' : 'Stop requiring'}
      </button>
      {update.error ? (
        <span className="field-error" role="alert">
          {update.error.message}
        </span>
      ) : null}
    </>
  );
}
