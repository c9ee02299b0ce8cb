import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { Field, describedBy } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useSave } from '../../ui/use-save';
import { contextLink, useContexts, useCreateContext } from './contexts-api';

const COLUMNS = ['Type', 'Id', 'Updated'].map((label) => ({ label }));

function NewContextForm() {
  const create = useCreateContext();
  const navigate = useNavigate();
  const { register, handleSubmit, control } = useForm({ defaultValues: { type: '', id: '', data: '{}' } });
  const { failure, submit } = useSave(create.mutateAsync, (context) => navigate(contextLink(context.type, context.id)));
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-context"
      title="New context"
      submitLabel="Create context"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={handleSubmit(submit)}
    >
      <Field id="context-type" label="Context type" messages={fields?.type}>
        <input id="context-type" {...describedBy('context-type', fields?.type)} {...register('type')} />
      </Field>
      <Field id="context-id" label="Context id" messages={fields?.id}>
        <input id="context-id" {...describedBy('context-id', fields?.id)} {...register('id')} />
      </Field>
      <Controller
        control={control}
        name="data"
        render={({ field }) => (
          <LazyJsonEditor label="Context data (JSON)" value={field.value} onChange={field.onChange} />
        )}
      />
    </InlineForm>
  );
}

/** The picked environment's contexts, newest first; editors create them here. */
export function ContextsPage() {
  const contexts = useContexts();
  const canEdit = useRoleAtLeast('editor');
  const shown = contexts.data?.data ?? [];
  return (
    <section aria-labelledby="contexts-title">
      <h1 id="contexts-title">Contexts</h1>
      {contexts.isPending ? <Loading label="Loading contexts" /> : null}
      {contexts.isError ? <ErrorState error={contexts.error} /> : null}
      {contexts.data && shown.length === 0 ? <Empty>No contexts yet.</Empty> : null}
      {shown.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {shown.map((context) => (
            <tr key={`${context.type}:${context.id}`}>
              <td className="mono">{context.type}</td>
              <td>
                <Link to={contextLink(context.type, context.id)}>{context.id}</Link>
              </td>
              <td>{new Date(context.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {contexts.data && contexts.data.totalCount > shown.length ? (
        <p className="muted">
          The newest {shown.length} of {contexts.data.totalCount}.
        </p>
      ) : null}
      {canEdit ? <NewContextForm /> : null}
    </section>
  );
}
