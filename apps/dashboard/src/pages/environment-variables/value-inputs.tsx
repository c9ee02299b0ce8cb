import type { UseFormRegister } from 'react-hook-form';
import { useSession } from '../../session/session';
import type { VariableValues } from './variables-api';

export interface VariableFormValues {
  key: string;
  isSecret: boolean;
  /** By environment id. */
  values: Record<string, string>;
}

/**
 * The values to send. With `dropEmpty` (a new variable, or a secret, whose inputs start empty as it is never
 * read back) an empty input is left out, which keeps what is stored; otherwise an emptied value is sent
 * empty, which removes it.
 */
export function valuesToSend(form: VariableFormValues, dropEmpty: boolean): VariableValues {
  return Object.entries(form.values)
    .filter(([, value]) => value !== '' || !dropEmpty)
    .map(([environmentId, value]) => ({ _environmentId: environmentId, value }));
}

/** One input per environment of the organization. */
export function ValueInputs({
  register,
  secret,
  stored,
}: {
  register: UseFormRegister<VariableFormValues>;
  /** The variable is stored as a secret: its inputs start empty. */
  secret: boolean;
  /** The environments that hold a value, for a secret's "set" hint. */
  stored?: Set<string>;
}) {
  const { environments } = useSession();
  return (
    <fieldset className="variable-values">
      <legend>Value per environment</legend>
      {environments.map((environment) => {
        const id = `variable-value-${environment.id}`;
        const hint = stored?.has(environment.id) ? 'set, unchanged when left empty' : 'not set';
        return (
          <div className="field" key={environment.id}>
            <label htmlFor={id}>{environment.name}</label>
            <input
              id={id}
              type={secret ? 'password' : 'text'}
              autoComplete={secret ? 'new-password' : 'off'}
              placeholder={secret ? hint : undefined}
              {...register(`values.${environment.id}`)}
            />
          </div>
        );
      })}
    </fieldset>
  );
}
