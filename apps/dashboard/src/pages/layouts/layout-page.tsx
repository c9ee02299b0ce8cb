import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field, FormError, describedBy } from '../../ui/field';
import { ErrorState, Loading } from '../../ui/states';
import { useSave } from '../../ui/use-save';
import {
  previewLayout,
  useDeleteLayout,
  useLayout,
  useUpdateLayout,
  type Layout,
  type LayoutChanges,
} from './layouts-api';

const BODY_FIELD = 'controlValues.email.body';

function LayoutEditor({ layout, canEdit }: { layout: Layout; canEdit: boolean }) {
  const navigate = useNavigate();
  const update = useUpdateLayout(layout.layoutId);
  const remove = useDeleteLayout(layout.layoutId);
  const [preview, setPreview] = useState<string>();
  const [previewFailure, setPreviewFailure] = useState<string>();
  const { register, handleSubmit, getValues } = useForm<LayoutChanges>({
    defaultValues: { name: layout.name, body: layout.controls.values.email?.body ?? '', makeDefault: false },
  });
  const { failure, submit } = useSave(update.mutateAsync, () => undefined);
  const fields = failure?.fields;
  const showPreview = async () => {
    try {
      setPreview(await previewLayout(layout.layoutId, getValues('body')));
      setPreviewFailure(undefined);
    } catch (error) {
      setPreviewFailure(error instanceof Error ? error.message : 'The preview failed');
    }
  };
  return (
    <>
      <form className="layout-form" onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
        <Field id="layout-name" label="Layout name" messages={fields?.name}>
          <input
            id="layout-name"
            readOnly={!canEdit}
            {...describedBy('layout-name', fields?.name)}
            {...register('name')}
          />
        </Field>
        <p>
          Identifier <span className="mono">{layout.layoutId}</span>
          {layout.isDefault ? ' — the environment’s default layout' : ''}
        </p>
        <Field id="layout-body" label="HTML (with a {{content}} slot)" messages={fields?.[BODY_FIELD]}>
          <textarea
            id="layout-body"
            className="mono code"
            rows={16}
            readOnly={!canEdit}
            spellCheck={false}
            {...describedBy('layout-body', fields?.[BODY_FIELD])}
            {...register('body')}
          />
        </Field>
        {canEdit && !layout.isDefault ? (
          <label className="checkbox">
            <input type="checkbox" {...register('makeDefault')} />
            Make it the environment’s default layout
          </label>
        ) : null}
        <FormError message={failure?.message} />
        <div className="actions">
          {canEdit ? (
            <button type="submit" disabled={update.isPending}>
              Save layout
            </button>
          ) : null}
          {/* The preview is a POST, which the API refuses a viewer. */}
          {canEdit ? (
            <button type="button" onClick={() => void showPreview()}>
              Preview
            </button>
          ) : null}
          {canEdit ? (
            <ConfirmButton
              label="Delete"
              title={`Delete ${layout.name}?`}
              description="Refused while a workflow uses it."
              confirmLabel="Delete layout"
              onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate('/layouts') })}
            />
          ) : null}
        </div>
        {update.isSuccess && !failure ? <p role="status">Saved.</p> : null}
        <FormError message={remove.error?.message ?? previewFailure} />
      </form>
      {preview !== undefined ? (
        <iframe title="Layout preview" sandbox="" srcDoc={preview} className="email-frame" />
      ) : null}
    </>
  );
}

/** One layout: its HTML edited as code, previewed as the API renders it, made the default, deleted. */
export function LayoutPage() {
  const { layoutId = '' } = useParams();
  const layout = useLayout(layoutId);
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="layout-title">
      <p>
        <Link to="/layouts">← Layouts</Link>
      </p>
      <h1 id="layout-title">{layout.data?.name ?? layoutId}</h1>
      {layout.isPending ? <Loading label="Loading the layout" /> : null}
      {layout.isError ? <ErrorState error={layout.error} /> : null}
      {layout.data ? <LayoutEditor key={layout.data._id} layout={layout.data} canEdit={canEdit} /> : null}
    </section>
  );
}
