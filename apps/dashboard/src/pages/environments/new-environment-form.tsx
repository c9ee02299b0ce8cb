import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field, FormError, describedBy } from '../../ui/field';
import { saveFailure, type SaveFailure } from '../../ui/form-error';
import { useCreateEnvironment } from './environments-api';

/** Creates an environment; its API key is in the answer only, so it is shown here once. */
export function NewEnvironmentForm() {
  const create = useCreateEnvironment();
  const [failure, setFailure] = useState<SaveFailure>();
  const [key, setKey] = useState<{ name: string; key: string }>();
  const { register, handleSubmit, reset } = useForm({ defaultValues: { name: '', color: '#3366ff' } });
  const submit = handleSubmit(async (input) => {
    try {
      const created = await create.mutateAsync(input);
      setFailure(undefined);
      setKey({ name: created.name, key: created.apiKeys?.[0]?.key ?? '' });
      reset();
    } catch (error) {
      setFailure(saveFailure(error));
    }
  });
  const fields = failure?.fields;
  return (
    <form
      className="inline-form"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="new-environment-title"
      noValidate
    >
      <h2 id="new-environment-title">New environment</h2>
      <Field id="environment-name" label="Environment name" messages={fields?.name}>
        <input id="environment-name" {...describedBy('environment-name', fields?.name)} {...register('name')} />
      </Field>
      <Field id="environment-color" label="Colour" messages={fields?.color}>
        <input id="environment-color" type="color" {...register('color')} />
      </Field>
      <FormError message={failure?.message} />
      <button type="submit" disabled={create.isPending}>
        Create environment
      </button>
      {key ? (
        <p role="status" className="api-key">
          API key of {key.name} (shown once, keep it): <code>{key.key}</code>
        </p>
      ) : null}
    </form>
  );
}
