import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field, TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { useSave } from '../../ui/use-save';
import { useCreateEnvironment } from './environments-api';

/** Creates an environment; its API key is in the answer only, so it is shown here once. */
export function NewEnvironmentForm() {
  const create = useCreateEnvironment();
  const [key, setKey] = useState<{ name: string; key: string }>();
  const { register, handleSubmit, reset } = useForm({ defaultValues: { name: '', color: '#3366ff' } });
  const { failure, submit: save } = useSave(create.mutateAsync, (created) => {
    setKey({ name: created.name, key: created.apiKeys?.[0]?.key ?? '' });
    reset();
  });
  const submit = handleSubmit(save);
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-environment"
      title="New environment"
      submitLabel="Create environment"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={submit}
    >
      <TextField
        id="environment-name"
        label="Environment name"
        messages={fields?.name}
        registration={register('name')}
      />
      <Field id="environment-color" label="Colour" messages={fields?.color}>
        <input id="environment-color" type="color" {...register('color')} />
      </Field>
      {key ? (
        <p role="status" className="api-key">
          API key of {key.name} (shown once, keep it): <code>{key.key}</code>
        </p>
      ) : null}
    </InlineForm>
  );
}
