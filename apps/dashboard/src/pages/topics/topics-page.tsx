import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useRoleAtLeast } from '../../session/session';
import { Field, describedBy } from '../../ui/field';
import { InlineForm } from '../../ui/inline-form';
import { ListTable } from '../../ui/list-table';
import { Empty, ErrorState, Loading } from '../../ui/states';
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
      <Field id="topic-key" label="Topic key" messages={fields?.key}>
        <input id="topic-key" {...describedBy('topic-key', fields?.key)} {...register('key')} />
      </Field>
      <Field id="topic-name" label="Topic name" messages={fields?.name}>
        <input id="topic-name" {...describedBy('topic-name', fields?.name)} {...register('name')} />
      </Field>
    </InlineForm>
  );
}

/** The picked environment's topics; editors create them here. */
export function TopicsPage() {
  const topics = useTopics();
  const canEdit = useRoleAtLeast('editor');
  return (
    <section aria-labelledby="topics-title">
      <h1 id="topics-title">Topics</h1>
      {topics.isPending ? <Loading label="Loading topics" /> : null}
      {topics.isError ? <ErrorState error={topics.error} /> : null}
      {topics.data?.data.length === 0 ? <Empty>No topics yet.</Empty> : null}
      {topics.data && topics.data.data.length > 0 ? (
        <ListTable columns={COLUMNS}>
          {topics.data.data.map((topic) => (
            <tr key={topic._id}>
              <td>
                <Link to={`/topics/${encodeURIComponent(topic.key)}`}>{topic.key}</Link>
              </td>
              <td>{topic.name ?? '—'}</td>
              <td>{new Date(topic.createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {canEdit ? <NewTopicForm /> : null}
    </section>
  );
}
