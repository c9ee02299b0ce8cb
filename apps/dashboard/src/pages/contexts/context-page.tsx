import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { FormError } from '../../ui/field';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { ErrorState, Loading } from '../../ui/states';
import { useSave } from '../../ui/use-save';
import { useStoredContext, useDeleteContext, useUpdateContext, type Context } from './contexts-api';

function ContextEditor({ context }: { context: Context }) {
  const navigate = useNavigate();
  const update = useUpdateContext(context.type, context.id);
  const remove = useDeleteContext(context.type, context.id);
  const { handleSubmit, control } = useForm({ defaultValues: { data: JSON.stringify(context.data, null, 2) } });
  const { failure, submit } = useSave(update.mutateAsync, () => undefined);
  return (
    <form onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <Controller
        control={control}
        name="data"
        render={({ field }) => (
          <LazyJsonEditor label="Context data (JSON)" value={field.value} onChange={field.onChange} />
        )}
      />
      <FormError message={failure?.message} />
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          Save context
        </button>
        <ConfirmButton
          label="Delete"
          title={`Delete ${context.type} ${context.id}?`}
          description="Messages already sent keep its key; a later trigger naming it creates it again."
          confirmLabel="Delete context"
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate('/contexts') })}
        />
      </div>
      {update.isSuccess && !failure ? <p role="status">Saved.</p> : null}
      <FormError message={remove.error?.message} />
    </form>
  );
}

/** One context: its data as JSON, which editors change (the save replaces it) or delete. */
export function ContextPage() {
  const { type = '', id = '' } = useParams();
  const context = useStoredContext(type, id);
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="context-title">
      <p>
        <Link to="/contexts">← Contexts</Link>
      </p>
      <h1 id="context-title">
        Context {type} {id}
      </h1>
      {context.isPending ? <Loading label="Loading the context" /> : null}
      {context.isError ? <ErrorState error={context.error} /> : null}
      {context.data && canEdit ? <ContextEditor context={context.data} /> : null}
      {context.data && !canEdit ? (
        <LazyJsonEditor label="Context data (JSON)" value={JSON.stringify(context.data.data, null, 2)} />
      ) : null}
    </section>
  );
}
