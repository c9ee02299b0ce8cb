import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { Field, FormError, describedBy } from '../../ui/field';
import { saveFailure, type SaveFailure } from '../../ui/form-error';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useCreateWorkflow, useWorkflows } from './workflows-api';

const COLUMNS = ['Name', 'Trigger identifier', 'Steps', 'Status', 'Updated'].map((label) => ({ label }));

function NewWorkflowForm() {
  const create = useCreateWorkflow();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<SaveFailure>();
  const { register, handleSubmit } = useForm<{ name: string; workflowId: string }>();
  const submit = handleSubmit(async (input) => {
    try {
      const workflow = await create.mutateAsync(input);
      await navigate(`/workflows/${encodeURIComponent(workflow.workflowId)}`);
    } catch (error) {
      setFailure(saveFailure(error));
    }
  });
  const fields = failure?.fields;
  return (
    <form
      className="inline-form"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="new-workflow-title"
      noValidate
    >
      <h2 id="new-workflow-title">New workflow</h2>
      <Field id="new-workflow-name" label="Name" messages={fields?.name}>
        <input id="new-workflow-name" {...describedBy('new-workflow-name', fields?.name)} {...register('name')} />
      </Field>
      <Field id="new-workflow-id" label="Trigger identifier" messages={fields?.workflowId}>
        <input
          id="new-workflow-id"
          {...describedBy('new-workflow-id', fields?.workflowId)}
          {...register('workflowId')}
        />
      </Field>
      <FormError message={failure?.message} />
      <button type="submit" disabled={create.isPending}>
        Create workflow
      </button>
    </form>
  );
}

/** The picked environment's workflows; editors and admins create them here. */
export function WorkflowsPage() {
  const list = useWorkflows();
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="workflows-title">
      <h1 id="workflows-title">Workflows</h1>
      {list.isPending ? <Loading label="Loading workflows" /> : null}
      {list.isError ? <ErrorState error={list.error} /> : null}
      {list.data?.workflows.length === 0 ? <Empty>No workflows yet.</Empty> : null}
      {list.data && list.data.workflows.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {list.data.workflows.map((workflow) => (
            <tr key={workflow._id}>
              <td>
                <Link to={`/workflows/${encodeURIComponent(workflow.workflowId)}`}>{workflow.name}</Link>
              </td>
              <td className="mono">{workflow.workflowId}</td>
              <td>{workflow.steps.length}</td>
              <td>{workflow.active ? 'active' : 'inactive'}</td>
              <td>{new Date(workflow.updatedAt).toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {canEdit ? <NewWorkflowForm /> : null}
    </section>
  );
}
