import type { InputHTMLAttributes, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * A labelled input with the API's 422 messages for it underneath, tied to the input for screen readers. The
 * input keeps what was typed: a failed save changes nothing in the form.
 */
export function Field({
  id,
  label,
  messages,
  children,
}: {
  id: string;
  label: ReactNode;
  messages?: string[];
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {messages?.length ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {messages.join('; ')}
        </p>
      ) : null}
    </div>
  );
}

/** The aria attributes of an input whose field may show messages. */
export function describedBy(id: string, messages?: string[]) {
  return messages?.length ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

/** An input of a React Hook Form in its Field, tied to its messages; other attributes go to the input. */
export function TextField({
  id,
  label,
  messages,
  registration,
  ...input
}: {
  id: string;
  label: string;
  messages?: string[];
  registration: UseFormRegisterReturn;
} & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field id={id} label={label} messages={messages}>
      <input id={id} {...input} {...describedBy(id, messages)} {...registration} />
    </Field>
  );
}

/** A message about the whole form (a refused save, a wrong password), announced when it appears. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
