import type { UseFormRegister } from 'react-hook-form';
import type { FieldMessages } from '../../api/client';
import { Field, describedBy } from '../../ui/field';
import type { CredentialField } from './integrations-api';
import type { IntegrationFormValues } from './integration-form-values';

function CredentialInput({
  field,
  editing,
  messages,
  register,
}: {
  field: CredentialField;
  editing: boolean;
  messages?: string[];
  register: UseFormRegister<IntegrationFormValues>;
}) {
  const id = `credential-${field.name}`;
  const name = `credentials.${field.name}` as const;
  const aria = describedBy(id, messages);
  // A secret is never read back: the input starts empty and, left so, keeps what is stored.
  const secret = field.secret
    ? { autoComplete: 'new-password', placeholder: editing ? 'unchanged when left empty' : undefined }
    : {};
  if (field.type === 'text')
    return <textarea id={id} rows={5} className="mono" {...aria} {...secret} {...register(name)} />;
  return <input id={id} type={field.secret ? 'password' : 'text'} {...aria} {...secret} {...register(name)} />;
}

/** The credential fields of one provider, as the API describes them; secrets are write-only. */
export function CredentialInputs({
  fields,
  editing,
  messages,
  register,
}: {
  fields: CredentialField[];
  editing: boolean;
  messages: FieldMessages;
  register: UseFormRegister<IntegrationFormValues>;
}) {
  if (fields.length === 0)
    return <p className="muted">This provider needs no credentials: it posts to each subscriber’s own webhook.</p>;
  return (
    <fieldset className="credentials">
      <legend>Credentials</legend>
      {fields.map((field) =>
        field.type === 'boolean' ? (
          <label key={field.name} className="checkbox">
            <input type="checkbox" {...register(`credentials.${field.name}`)} />
            {field.label}
          </label>
        ) : (
          <Field
            key={field.name}
            id={`credential-${field.name}`}
            label={`${field.label}${field.required ? '' : ' (optional)'}${field.secret ? ', secret' : ''}`}
            messages={messages[`credentials.${field.name}`]}
          >
            <CredentialInput
              field={field}
              editing={editing}
              messages={messages[`credentials.${field.name}`]}
              register={register}
            />
          </Field>
        ),
      )}
    </fieldset>
  );
}
