import type { FormEvent, ReactNode } from 'react';
import { FormError } from './field';

/** A titled form that adds one thing: its fields, the message of a refused save, its submit button. */
export function InlineForm({
  id,
  title,
  submitLabel,
  busy,
  error,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  submitLabel: string;
  busy: boolean;
  error?: string;
  onSubmit: (event: FormEvent) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form className="inline-form" onSubmit={(event) => void onSubmit(event)} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <FormError message={error} />
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
