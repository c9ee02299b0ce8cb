import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../session/session';
import { TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { ListPage } from '../../ui/list-page';
import { useSave } from '../../ui/use-save';
import { ValueInputs, valuesToSend, type VariableFormValues } from './value-inputs';
import { useCreateVariable, useVariables, type Variable } from './variables-api';

function NewVariableForm() {
  const create = useCreateVariable();
  const navigate = useNavigate();
  const { register, handleSubmit, control } = useForm<VariableFormValues>({
    defaultValues: { key: '', isSecret: false, values: {} },
  });
  const isSecret = useWatch({ control, name: 'isSecret' });
  const { failure, submit } = useSave(
    (form: VariableFormValues) =>
      create.mutateAsync({ key: form.key, isSecret: form.isSecret, values: valuesToSend(form, true) }),
    (created) => navigate(`/environment-variables/${encodeURIComponent(created.key)}`),
  );
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-variable"
      title="New variable"
      submitLabel="Create variable"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={handleSubmit(submit)}
    >
      <TextField
        id="variable-key"
        label="Key (UPPER_SNAKE_CASE)"
        messages={fields?.key}
        registration={register('key')}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('isSecret')} />
        Secret (encrypted, never shown again)
      </label>
      <ValueInputs register={register} secret={isSecret} />
    </InlineForm>
  );
}

const shownValue = (variable: Variable, environmentId: string) =>
  variable.values.find((value) => value._environmentId === environmentId)?.value ?? '—';

/** The organization's variables with their value in each environment; editors create them here. */
export function VariablesPage() {
  const { environments } = useSession();
  const columns = ['Key', 'Secret', ...environments.map((environment) => environment.name)].map((label) => ({
    label,
  }));
  return (
    <ListPage
      id="variables"
      title="Environment variables"
      intro={
        <p className="muted">
          Read in templates as {'{{env.KEY}}'}, with the value of the environment the step runs in.
        </p>
      }
      query={useVariables()}
      items={(variables) => variables}
      loadingLabel="Loading variables"
      emptyText="No variables yet."
      columns={columns}
      row={(variable) => (
        <tr key={variable._id}>
          <td>
            <Link to={`/environment-variables/${encodeURIComponent(variable.key)}`}>{variable.key}</Link>
          </td>
          <td>{variable.isSecret ? 'secret' : ''}</td>
          {environments.map((environment) => (
            <td key={environment.id} className="mono">
              {shownValue(variable, environment.id)}
            </td>
          ))}
        </tr>
      )}
      createForm={<NewVariableForm />}
    />
  );
}
