import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { Field, describedBy } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useSave } from '../../ui/use-save';
import { useCreateLayout, useLayouts } from './layouts-api';

const COLUMNS = ['Name', 'Identifier', 'Default', 'Updated'].map((label) => ({ label }));

function NewLayoutForm() {
  const create = useCreateLayout();
  const navigate = useNavigate();
  const { register, handleSubmit } = useForm({ defaultValues: { name: '', layoutId: '', isDefault: false } });
  const { failure, submit } = useSave(create.mutateAsync, (layout) =>
    navigate(`/layouts/${encodeURIComponent(layout.layoutId)}`),
  );
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-layout"
      title="New layout"
      submitLabel="Create layout"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={handleSubmit(submit)}
    >
      <Field id="layout-name" label="Layout name" messages={fields?.name}>
        <input id="layout-name" {...describedBy('layout-name', fields?.name)} {...register('name')} />
      </Field>
      <Field id="layout-id" label="Layout identifier" messages={fields?.layoutId}>
        <input id="layout-id" {...describedBy('layout-id', fields?.layoutId)} {...register('layoutId')} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" {...register('isDefault')} />
        The environment’s default layout
      </label>
    </InlineForm>
  );
}

/** The picked environment's email layouts; editors create them here. */
export function LayoutsPage() {
  const layouts = useLayouts();
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="layouts-title">
      <h1 id="layouts-title">Layouts</h1>
      {layouts.isPending ? <Loading label="Loading layouts" /> : null}
      {layouts.isError ? <ErrorState error={layouts.error} /> : null}
      {layouts.data?.layouts.length === 0 ? <Empty>No layouts yet.</Empty> : null}
      {layouts.data && layouts.data.layouts.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {layouts.data.layouts.map((layout) => (
            <tr key={layout._id}>
              <td>
                <Link to={`/layouts/${encodeURIComponent(layout.layoutId)}`}>{layout.name}</Link>
              </td>
              <td className="mono">{layout.layoutId}</td>
              <td>{layout.isDefault ? 'default' : ''}</td>
              <td>{new Date(layout.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {canEdit ? <NewLayoutForm /> : null}
    </section>
  );
}
