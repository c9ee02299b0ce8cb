import { useForm } from 'react-hook-form';
import { describedBy } from '../../ui/field';
import { useSave } from '../../ui/use-save';
import { useUpdateRetention, type Environment } from './environments-api';

interface Days {
  activityDays: string;
  messagesDays: string;
}

/** An empty field is the deployment's default (null); the API says which numbers it takes. */
const days = (value: string): number | null => (value.trim() === '' ? null : Number(value));

/** One environment's retention overrides, edited in its row of the list. */
export function RetentionForm({ environment }: { environment: Environment }) {
  const update = useUpdateRetention();
  const { retention } = environment;
  const { register, handleSubmit } = useForm<Days>({
    defaultValues: {
      activityDays: retention.activityDaysOverride?.toString() ?? '',
      messagesDays: retention.messagesDaysOverride?.toString() ?? '',
    },
  });
  const { failure, submit: save } = useSave(
    (input: Days) =>
      update.mutateAsync({
        id: environment._id,
        activityDays: days(input.activityDays),
        messagesDays: days(input.messagesDays),
      }),
    () => undefined,
  );
  const submit = handleSubmit(save);
  const id = (field: string) => `${environment._id}-${field}`;
  const messages = (field: keyof Days) => failure?.fields[`retention.${field}`];
  const labelled = (field: keyof Days, label: string) => (
    <label>
      {label} ({field === 'activityDays' ? retention.activityDays : retention.messagesDays} in force)
      <input
        id={id(field)}
        inputMode="numeric"
        size={5}
        {...describedBy(id(field), messages(field))}
        {...register(field)}
      />
      {messages(field)?.length ? (
        <span className="field-error" id={`${id(field)}-error`} role="alert">
          {messages(field)?.join('; ')}
        </span>
      ) : null}
    </label>
  );
  return (
    <form
      className="retention-form"
      onSubmit={(event) => void submit(event)}
      aria-label={`Retention of ${environment.name}`}
      noValidate
    >
      {labelled('activityDays', 'Activity days')}
      {labelled('messagesDays', 'Message days')}
      <button type="submit" disabled={update.isPending}>
        Save retention
      </button>
      {failure && Object.keys(failure.fields).length === 0 ? (
        <span className="field-error" role="alert">
          {failure.message}
        </span>
      ) : null}
    </form>
  );
}
