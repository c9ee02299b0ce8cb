import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { api } from '../../api/client';
import type { WorkflowSummary } from '../../api/types';
import { useSession } from '../../session/session';
import { filtersFrom, type ActivityFilters } from './activity-request';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
/** The API's `statuses` values, named as the list shows a notification's status (notification-status.ts). */
const STATUSES = [
  { value: 'failed', label: 'failed' },
  { value: 'pending', label: 'in progress' },
  { value: 'completed', label: 'done' },
] as const;

const NO_FILTERS = filtersFrom(() => '');

function useWorkflowNames() {
  const { environment } = useSession();
  return useQuery({
    queryKey: ['workflows', environment.id, 'names'],
    queryFn: () => api<{ data: WorkflowSummary[] }>('GET', '/v1/workflows?limit=100'),
    staleTime: 60_000,
  });
}

export function ActivityFilterForm({
  filters,
  onApply,
}: {
  filters: ActivityFilters;
  onApply: (filters: ActivityFilters) => void;
}) {
  const workflows = useWorkflowNames();
  const { register, handleSubmit, reset } = useForm<ActivityFilters>({ values: filters });
  return (
    <form className="filters" onSubmit={(event) => void handleSubmit(onApply)(event)} aria-label="Filters">
      <label>
        Workflow
        <select {...register('workflow')}>
          <option value="">Any</option>
          {workflows.data?.data.map((workflow) => (
            <option key={workflow._id} value={workflow._id}>
              {workflow.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Channel
        <select {...register('channel')}>
          <option value="">Any</option>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {channel}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select {...register('status')}>
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status.value} value={status.value}>
              {status.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Subscriber id
        <input {...register('subscriberId')} />
      </label>
      <label>
        Transaction id
        <input {...register('transactionId')} />
      </label>
      <label>
        From
        <input type="datetime-local" {...register('after')} />
      </label>
      <label>
        To
        <input type="datetime-local" {...register('before')} />
      </label>
      <button type="submit">Apply</button>
      <button
        type="button"
        onClick={() => {
          reset(NO_FILTERS);
          onApply(NO_FILTERS);
        }}
      >
        Clear
      </button>
    </form>
  );
}
