import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { TextField } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { ListPage } from '../../ui/list-page';
import { useSave } from '../../ui/use-save';
import { useCreateTopic, useTopics } from './topics-api';

const COLUMNS = ['Key', 'Name', 'Created'].map((label) => ({ label }));

function NewTopicForm() {
  const create = useCreateTopic();
  const { register, handleSubmit, reset } = useForm({ defaultValues: { key: '', name: '' } });
  const { failure, submit } = useSave(create.mutateAsync, () => reset());
  const fields = failure?.fields;
  return (
    <InlineForm
      id="new-topic"
      title="New topic"
      submitLabel="Create topic"
      busy={create.isPending}
      error={failure?.message}
      onSubmit={handleSubmit(submit)}
    >
      <TextField id="topic-key" label="Topic key" messages={fields?.key} registration={register('key')} />
      <TextField id="topic-name" label="Topic name" messages={fields?.name} registration={register('name')} />
    </InlineForm>
  );
}

/** The picked environment's topics; editors create them here. */
export function TopicsPage() {
  return (
    <ListPage
      id="topics"
      title="Topics"
      query={useTopics()}
      items={(page) => page.data}
      loadingLabel="Loading topics"
      emptyText="No topics yet."
      columns={COLUMNS}
      row={(topic) => (
        <tr key={topic._id}>
          <td>
            <Link to={`/topics/${encodeURIComponent(topic.key)}`}>{topic.key}</Link>
          </td>
          <td>{topic.name ?? '—'}</td>
          <td>{new Date(topic.createdAt).toLocaleString()}</td>
        </tr>
      )}
      createForm={<NewTopicForm />}
    />
  );
}
