import { Link, useParams } from 'react-router';
import { ErrorState, Loading } from '../../ui/states';
import { WorkflowEditor } from './workflow-editor';
import { useWorkflow } from './workflows-api';

export function WorkflowPage() {
  const { workflowId = '' } = useParams();
  const workflow = useWorkflow(workflowId);
  return (
    <section aria-labelledby="workflow-title">
      <p>
        <Link to="/workflows">← Workflows</Link>
      </p>
      <h1 id="workflow-title">{workflow.data?.name ?? workflowId}</h1>
      {workflow.isPending ? <Loading label="Loading the workflow" /> : null}
      {workflow.isError ? <ErrorState error={workflow.error} /> : null}
      {/* Keyed by version: another workflow, or this one saved elsewhere and reloaded, starts a fresh form. */}
      {workflow.data ? <WorkflowEditor key={workflow.data._id} workflow={workflow.data} /> : null}
    </section>
  );
}
