import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { ListPage } from '../../ui/list-page';
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
      <TextField id="context-type" label="Context type" messages={fields?.type} registration={register('type')} />
      <TextField id="context-id" label="Context id" messages={fields?.id} registration={register('id')} />
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
  return (
    <ListPage
      id="contexts"
      title="Contexts"
      query={useContexts()}
      items={(page) => page.data}
      loadingLabel="Loading contexts"
      emptyText="No contexts yet."
      columns={COLUMNS}
      row={(context) => (
        <tr key={`${context.type}:${context.id}`}>
          <td className="mono">{context.type}</td>
          <td>
            <Link to={contextLink(context.type, context.id)}>{context.id}</Link>
          </td>
          <td>{new Date(context.updatedAt).toLocaleString()}</td>
        </tr>
      )}
      footer={(page) =>
        page.totalCount > page.data.length ? (
          <p className="muted">
            The newest {page.data.length} of {page.totalCount}.
          </p>
        ) : null
      }
      createForm={<NewContextForm />}
    />
  );
}
