import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { ListPage } from '../../ui/list-page';
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
      <TextField id="layout-name" label="Layout name" messages={fields?.name} registration={register('name')} />
      <TextField
        id="layout-id"
        label="Layout identifier"
        messages={fields?.layoutId}
        registration={register('layoutId')}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('isDefault')} />
        The environment’s default layout
      </label>
    </InlineForm>
  );
}

/** The picked environment's email layouts; editors create them here. */
export function LayoutsPage() {
  return (
    <ListPage
      id="layouts"
      title="Layouts"
      query={useLayouts()}
      items={(list) => list.layouts}
      loadingLabel="Loading layouts"
      emptyText="No layouts yet."
      columns={COLUMNS}
      row={(layout) => (
        <tr key={layout._id}>
          <td>
            <Link to={`/layouts/${encodeURIComponent(layout.layoutId)}`}>{layout.name}</Link>
          </td>
          <td className="mono">{layout.layoutId}</td>
          <td>{layout.isDefault ? 'default' : ''}</td>
          <td>{new Date(layout.updatedAt).toLocaleString()}</td>
        </tr>
      )}
      createForm={<NewLayoutForm />}
    />
  );
}
