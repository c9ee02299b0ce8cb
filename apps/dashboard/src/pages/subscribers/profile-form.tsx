import { Controller, useForm } from 'react-hook-form';
import { Field, FormError, describedBy } from '../../ui/field';
import { parsedJsonObject } from '../../ui/json-object';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { useSave } from '../../ui/use-save';
import { useUpdateProfile, type ProfileInput, type Subscriber } from './subscribers-api';

const TEXT_FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['locale', 'Locale'],
  ['timezone', 'Time zone (IANA, e.g. Europe/Paris)'],
  ['avatar', 'Avatar URL'],
] as const;

type TextField = (typeof TEXT_FIELDS)[number][0];
type ProfileValues = Record<TextField, string> & { data: string };

function formValues(subscriber: Subscriber): ProfileValues {
  const text = Object.fromEntries(TEXT_FIELDS.map(([name]) => [name, subscriber[name] ?? ''])) as Record<
    TextField,
    string
  >;
  return { ...text, data: JSON.stringify(subscriber.data ?? {}, null, 2) };
}

/** An emptied input clears the field (null), as the API reads it; the data must be a JSON object. */
function toInput(values: ProfileValues): ProfileInput {
  const text = Object.fromEntries(TEXT_FIELDS.map(([name]) => [name, values[name].trim() || null]));
  return { ...text, data: parsedJsonObject(values.data, 'data') };
}

/** The subscriber's profile as an editor changes it: PATCH /v2/subscribers/{subscriberId}. */
export function ProfileForm({ subscriber }: { subscriber: Subscriber }) {
  const update = useUpdateProfile(subscriber.subscriberId);
  const { register, handleSubmit, control, reset } = useForm<ProfileValues>({ defaultValues: formValues(subscriber) });
  const { failure, submit } = useSave(
    (values: ProfileValues) => update.mutateAsync(toInput(values)),
    (saved: Subscriber) => reset(formValues(saved)),
  );
  const fields = failure?.fields ?? {};
  return (
    <form aria-label="Profile" onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      {TEXT_FIELDS.map(([name, label]) => {
        const id = `profile-${name}`;
        return (
          <Field key={name} id={id} label={label} messages={fields[name]}>
            <input id={id} {...describedBy(id, fields[name])} {...register(name)} />
          </Field>
        );
      })}
      <div className="field">
        <span>Data (JSON object)</span>
        <Controller
          control={control}
          name="data"
          render={({ field }) => <LazyJsonEditor label="Data (JSON)" value={field.value} onChange={field.onChange} />}
        />
        {fields.data?.length ? (
          <p className="field-error" role="alert">
            {fields.data.join('; ')}
          </p>
        ) : null}
      </div>
      <FormError message={failure?.message} />
      <button type="submit" disabled={update.isPending}>
        Save profile
      </button>
      {update.isSuccess && !failure ? <p role="status">Saved.</p> : null}
    </form>
  );
}
