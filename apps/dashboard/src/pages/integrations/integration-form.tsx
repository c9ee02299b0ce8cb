import { Controller, useForm } from 'react-hook-form';
import { Field, FormError, describedBy } from '../../ui/field';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { useSave } from '../../ui/use-save';
import { CredentialInputs } from './credential-inputs';
import { formValues, toInput, type IntegrationFormValues } from './integration-form-values';
import type { Integration, IntegrationInput, Provider } from './integrations-api';

/**
 * An integration's name, identifier, active flag, the credentials its provider reads and its conditions;
 * for a new integration and an existing one alike.
 */
export function IntegrationForm({
  provider,
  integration,
  submitLabel,
  busy,
  save,
  onSaved,
}: {
  provider: Provider;
  integration?: Integration;
  submitLabel: string;
  busy: boolean;
  save: (input: IntegrationInput) => Promise<Integration>;
  onSaved: (saved: Integration) => unknown;
}) {
  const editing = Boolean(integration);
  const { register, handleSubmit, control } = useForm<IntegrationFormValues>({
    defaultValues: formValues(provider, integration),
  });
  const { failure, submit } = useSave(
    (values: IntegrationFormValues) => save(toInput(provider, values, editing)),
    onSaved,
  );
  const fields = failure?.fields ?? {};
  const conditionMessages = Object.entries(fields)
    .filter(([name]) => name.startsWith('conditions'))
    .flatMap(([name, messages]) => messages.map((message) => `${name}: ${message}`));
  return (
    <form className="integration-form" onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Field id="integration-name" label="Name" messages={fields.name}>
        <input id="integration-name" {...describedBy('integration-name', fields.name)} {...register('name')} />
      </Field>
      <Field id="integration-identifier" label="Identifier" messages={fields.identifier}>
        <input
          id="integration-identifier"
          placeholder={editing ? undefined : 'generated when left empty'}
          {...describedBy('integration-identifier', fields.identifier)}
          {...register('identifier')}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" {...register('active')} />
        Active
      </label>
      <CredentialInputs fields={provider.credentials} editing={editing} messages={fields} register={register} />
      <div className="field">
        <span>Conditions (JSON, optional: the integration is used when one passes)</span>
        <Controller
          control={control}
          name="conditions"
          render={({ field }) => (
            <LazyJsonEditor label="Conditions (JSON)" value={field.value} onChange={field.onChange} />
          )}
        />
        {conditionMessages.length ? (
          <p className="field-error" role="alert">
            {conditionMessages.join('; ')}
          </p>
        ) : null}
      </div>
      <FormError message={failure?.message} />
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
