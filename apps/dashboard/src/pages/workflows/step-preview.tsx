import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSession } from '../../session/session';
import { ErrorState } from '../../ui/states';
import { PREVIEWABLE } from './step-forms';
import { useDebounced } from './use-debounced';
import type { WorkflowStep } from './workflow-types';
import { previewStep } from './workflows-api';

const TYPING_PAUSE_MS = 120;

function withoutCondition(step: WorkflowStep): Record<string, unknown> {
  const { skip: _skip, ...controls } = step.controlValues;
  return controls;
}

function PreviewBody({ type, preview }: { type: string; preview: Record<string, unknown> }) {
  const subject = typeof preview.subject === 'string' ? preview.subject : undefined;
  const body = typeof preview.body === 'string' ? preview.body : JSON.stringify(preview.body ?? preview, null, 2);
  return (
    <div className="preview" data-testid="step-preview">
      {subject ? <p className="preview-subject">{subject}</p> : null}
      {type === 'email' ? (
        // No script of the email runs, and it cannot reach the dashboard: an empty sandbox.
        <iframe title="Email preview" sandbox="" srcDoc={body} className="email-frame" />
      ) : (
        <pre className="message-body">{body}</pre>
      )}
    </div>
  );
}

/**
 * The step as the API renders it for the sample payload and a sample subscriber, with the controls as they
 * stand in the form (saved or not).
 */
export function StepPreview({
  workflowId,
  step,
  payload,
}: {
  workflowId: string;
  step: WorkflowStep;
  payload: Record<string, unknown> | undefined;
}) {
  const { environment } = useSession();
  const input = useDebounced(JSON.stringify([step.controlValues, payload]), TYPING_PAUSE_MS);
  const stepId = step.stepId;
  const preview = useQuery({
    queryKey: ['preview', environment.id, workflowId, stepId, input],
    // The condition decides whether the step runs, not what it renders: a half-typed one does not stop the preview.
    queryFn: () => previewStep(workflowId, stepId ?? '', withoutCondition(step), payload ?? {}),
    enabled: Boolean(stepId) && PREVIEWABLE.has(step.type) && payload !== undefined,
    placeholderData: keepPreviousData,
  });
  if (!PREVIEWABLE.has(step.type)) return <p className="muted">A {step.type} step sends no message to preview.</p>;
  if (!stepId) return <p className="muted">Save the workflow to preview this step.</p>;
  if (payload === undefined) return <p className="muted">The sample payload is not valid JSON.</p>;
  if (preview.isError) return <ErrorState error={preview.error} />;
  if (!preview.data) return <p className="muted">Rendering…</p>;
  return <PreviewBody type={preview.data.result.type} preview={preview.data.result.preview} />;
}
