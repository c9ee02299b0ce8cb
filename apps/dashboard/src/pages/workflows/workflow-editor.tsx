import { useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useRoleAtLeast } from '../../session/session';
import { Field, FormError, describedBy } from '../../ui/field';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { saveFailure, type SaveFailure } from '../../ui/form-error';
import { PreferenceFields } from './preference-fields';
import { PublishPanel } from './publish-panel';
import { SendTest } from './send-test';
import { StepFields } from './step-fields';
import { StepList } from './step-list';
import { StepPreview } from './step-preview';
import type { Workflow, WorkflowInput, WorkflowStep } from './workflow-types';
import { toInput, useSaveWorkflow } from './workflows-api';

const SAMPLE_PAYLOAD = '{\n  "orderId": "A-1001"\n}';

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The form of a loaded workflow: its fields, its steps, a live preview, a test send and publishing. */
export function WorkflowEditor({ workflow }: { workflow: Workflow }) {
  const canEdit = useRoleAtLeast('editor');
  const [loadedAt, setLoadedAt] = useState(workflow.updatedAt);
  const save = useSaveWorkflow(workflow.workflowId, loadedAt);
  const form = useForm<WorkflowInput>({ defaultValues: toInput(workflow) });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const values = useWatch({ control: form.control }) as WorkflowInput;
  const [selected, setSelected] = useState(0);
  const [payloadText, setPayloadText] = useState(SAMPLE_PAYLOAD);
  const [failure, setFailure] = useState<SaveFailure>();
  const [saved, setSaved] = useState(false);
  const payload = parseObject(payloadText);
  const step: WorkflowStep | undefined = values.steps?.[selected];
  const fields = failure?.fields ?? {};

  const submit = form.handleSubmit(async (input) => {
    try {
      const answer = await save.mutateAsync(input);
      setLoadedAt(answer.updatedAt);
      form.reset(toInput(answer));
      setFailure(undefined);
      setSaved(true);
    } catch (error) {
      setSaved(false);
      setFailure(saveFailure(error));
    }
  });

  return (
    <form className="workflow-editor" onSubmit={(event) => void submit(event)} aria-label="Workflow" noValidate>
      <fieldset disabled={!canEdit} className="workflow-fields">
        <legend className="visually-hidden">Workflow</legend>
        <Field id="workflow-name" label="Name" messages={fields.name}>
          <input id="workflow-name" {...describedBy('workflow-name', fields.name)} {...form.register('name')} />
        </Field>
        <Field id="workflow-description" label="Description" messages={fields.description}>
          <input id="workflow-description" {...form.register('description')} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register('active')} /> Active
        </label>
      </fieldset>
      <fieldset disabled={!canEdit} className="workflow-fields">
        <legend>Preferences</legend>
        <PreferenceFields register={form.register} />
      </fieldset>
      <div className="editor-columns">
        <StepList
          steps={steps}
          names={(values.steps ?? []).map((one) => one.name)}
          selected={selected}
          onSelect={setSelected}
          canEdit={canEdit}
        />
        <fieldset disabled={!canEdit} className="step-form">
          <legend>{step ? `Step: ${step.name}` : 'No step yet'}</legend>
          {step ? (
            <StepFields
              key={steps.fields[selected]?.id}
              index={selected}
              type={step.type}
              register={form.register}
              fields={fields}
            />
          ) : (
            <p className="muted">Add a step to start.</p>
          )}
        </fieldset>
        <section aria-labelledby="preview-title" className="preview-column">
          <h2 id="preview-title">Preview</h2>
          <h3>Sample payload</h3>
          <LazyJsonEditor label="Sample payload (JSON)" value={payloadText} onChange={setPayloadText} />
          {!canEdit ? <p className="muted">Previews and tests need the editor role.</p> : null}
          {canEdit && step ? <StepPreview workflowId={workflow.workflowId} step={step} payload={payload} /> : null}
          {canEdit ? <SendTest workflowId={workflow.workflowId} payload={payload} /> : null}
        </section>
      </div>
      <FormError message={failure?.message} />
      {saved && !form.formState.isDirty ? <p role="status">Saved.</p> : null}
      {canEdit ? (
        <button type="submit" disabled={form.formState.isSubmitting}>
          Save
        </button>
      ) : null}
      <details>
        <summary>JSON</summary>
        <LazyJsonEditor label="The workflow as JSON" value={JSON.stringify(values, null, 2)} />
      </details>
      {canEdit ? <PublishPanel workflowId={workflow.workflowId} /> : null}
    </form>
  );
}
