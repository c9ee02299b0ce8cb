import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useRoleAtLeast, useSession } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { FormError } from '../../ui/field';
import { ErrorState, Loading } from '../../ui/states';
import { useSave } from '../../ui/use-save';
import { ValueInputs, valuesToSend, type VariableFormValues } from './value-inputs';
import { useDeleteVariable, useUpdateVariable, useVariable, type Variable } from './variables-api';

function VariableEditor({ variable, update }: { variable: Variable; update: ReturnType<typeof useUpdateVariable> }) {
  const navigate = useNavigate();
  const remove = useDeleteVariable(variable.key);
  const { environments } = useSession();
  const stored = new Set(variable.values.map((value) => value._environmentId));
  const { register, handleSubmit } = useForm<VariableFormValues>({
    defaultValues: {
      key: variable.key,
      isSecret: variable.isSecret,
      // A secret's values are masks: its inputs start empty.
      values: Object.fromEntries(
        environments.map((environment) => [
          environment.id,
          variable.isSecret
            ? ''
            : (variable.values.find((value) => value._environmentId === environment.id)?.value ?? ''),
        ]),
      ),
    },
  });
  const { failure, submit } = useSave(
    (form: VariableFormValues) =>
      update.mutateAsync({ isSecret: form.isSecret, values: valuesToSend(form, variable.isSecret) }),
    () => undefined,
  );
  return (
    <form className="variable-form" onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <label className="checkbox">
        <input type="checkbox" {...register('isSecret')} />
        Secret (encrypted, never shown again)
      </label>
      <ValueInputs register={register} secret={variable.isSecret} stored={stored} />
      <FormError message={failure?.message} />
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          Save variable
        </button>
        <ConfirmButton
          label="Delete"
          title={`Delete ${variable.key}?`}
          description="Templates reading it render it empty from then on, in every environment."
          confirmLabel="Delete variable"
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate('/environment-variables') })}
        />
      </div>
      <FormError message={remove.error?.message} />
    </form>
  );
}

function VariableValuesList({ variable }: { variable: Variable }) {
  const { environments } = useSession();
  return (
    <dl className="facts">
      <dt>Secret</dt>
      <dd>{variable.isSecret ? 'yes' : 'no'}</dd>
      {environments.map((environment) => (
        <div key={environment.id} className="facts-row">
          <dt>{environment.name}</dt>
          <dd className="mono">
            {variable.values.find((value) => value._environmentId === environment.id)?.value ?? '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One variable: its value in each environment; editors change them (secrets write-only) or delete it. */
export function VariablePage() {
  const { variableKey = '' } = useParams();
  const variable = useVariable(variableKey);
  const update = useUpdateVariable(variableKey);
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="variable-title">
      <p>
        <Link to="/environment-variables">← Environment variables</Link>
      </p>
      <h1 id="variable-title" className="mono">
        {variableKey}
      </h1>
      {variable.isPending ? <Loading label="Loading the variable" /> : null}
      {variable.isError ? <ErrorState error={variable.error} /> : null}
      {/* Keyed by update time: after a save the form starts again from what is stored, secrets emptied. */}
      {variable.data && canEdit ? (
        <VariableEditor key={variable.data.updatedAt} variable={variable.data} update={update} />
      ) : null}
      {update.isSuccess ? <p role="status">Saved.</p> : null}
      {variable.data && !canEdit ? <VariableValuesList variable={variable.data} /> : null}
    </section>
  );
}
