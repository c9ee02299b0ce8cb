import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { useSave } from '../../ui/use-save';
import { ListPage } from '../../ui/list-page';
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
      <TextField id="new-workflow-name" label="Name" messages={fields?.name} registration={register('name')} />
      <TextField
        id="new-workflow-id"
        label="Trigger identifier"
        messages={fields?.workflowId}
        registration={register('workflowId')}
      />
    </InlineForm>
  );
}

/** The picked environment's workflows; editors and admins create them here. */
export function WorkflowsPage() {
  return (
    <ListPage
      id="workflows"
      title="Workflows"
      query={useWorkflows()}
      items={(list) => list.workflows}
      loadingLabel="Loading workflows"
      emptyText="No workflows yet."
      columns={COLUMNS}
      row={(workflow) => (
        <tr key={workflow._id}>
          <td>
            <Link to={`/workflows/${encodeURIComponent(workflow.workflowId)}`}>{workflow.name}</Link>
          </td>
          <td className="mono">{workflow.workflowId}</td>
          <td>{workflow.steps.length}</td>
          <td>{workflow.active ? 'active' : 'inactive'}</td>
          <td>{new Date(workflow.updatedAt).toLocaleString()}</td>
        </tr>
      )}
      createForm={<NewWorkflowForm />}
    />
  );
}
