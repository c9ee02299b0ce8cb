import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { Field, describedBy } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { useSave } from '../../ui/use-save';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useCreateWorkflow, useWorkflows } from './workflows-api';

const COLUMNS = ['Name', 'Trigger identifier', 'Steps', 'Status', 'Updated'].map((label) => ({ label }));

function NewWorkflowForm() {
  const create = useCreateWorkflow();
  const navigate = useNavigate();
  const { register, handleSubmit } = useForm<{ name: string; workflowId: string }>();
  const { failure, submit: save } = useSave(create.mutateAsync, (workflow) =>
    navigate(`/workflows/${encodeURIComponent(workflow.workflowId)}`),
  );
  const submit = handleSubmit(save);
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-workflow"
      title="New workflow"
      submitLabel="Create workflow"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={submit}
    >
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
    </InlineForm>
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
