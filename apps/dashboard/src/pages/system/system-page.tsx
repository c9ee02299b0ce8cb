import { useQuery } from '@tanstack/react-query';
import { ListTable } from '../../ui/list-table';
import { ErrorState, Loading } from '../../ui/states';
import { parsePrometheusText, type Sample } from './prometheus-text';

const REFRESH_MS = 5_000;

/**
 * `/health` and `/metrics` are the service's own (no environment): plain fetches, as a monitor makes them, with
 * the session cookie the browser adds.
 */
async function getText(path: string): Promise<string> {
  const response = await fetch(path);
  const text = await response.text();
  // Where METRICS_TOKEN guards /metrics, the server lets an admin's session in and refuses the other roles.
  if (response.status === 403) throw new Error(`${path} is for admins where METRICS_TOKEN is set`);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return text;
}

function SampleTable({ title, samples, labels }: { title: string; samples: Sample[]; labels: string[] }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {samples.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ListTable columns={[...labels, 'count'].map((label) => ({ label }))}>
          {samples.map((sample) => (
            <tr key={labels.map((label) => sample.labels[label]).join('/')}>
              {labels.map((label) => (
                <td key={label}>{sample.labels[label]}</td>
              ))}
              <td>{sample.value}</td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}

/** The process's health, its queues' depth, and its delivery and failure counts (from /metrics). */
export function SystemPage() {
  const health = useQuery({ queryKey: ['health'], queryFn: () => getText('/health'), refetchInterval: REFRESH_MS });
  const metrics = useQuery({
    queryKey: ['metrics'],
    queryFn: async () => parsePrometheusText(await getText('/metrics')),
    refetchInterval: REFRESH_MS,
  });
  const named = (name: string) => (metrics.data ?? []).filter((sample) => sample.name === name);
  return (
    <section aria-labelledby="system-title">
      <h1 id="system-title">System</h1>
      <h2>Health</h2>
      {health.isPending ? <Loading label="Checking health" /> : null}
      {health.isError ? <ErrorState error={health.error} /> : null}
      {health.data ? <pre aria-label="Health">{JSON.stringify(JSON.parse(health.data), null, 2)}</pre> : null}
      {metrics.isPending ? <Loading label="Loading metrics" /> : null}
      {metrics.isError ? <ErrorState error={metrics.error} /> : null}
      {metrics.data ? (
        <>
          <SampleTable title="Queue depth" samples={named('queue_jobs')} labels={['queue', 'state']} />
          <SampleTable
            title="Deliveries"
            samples={named('deliveries_total')}
            labels={['channel', 'provider', 'status']}
          />
          <SampleTable title="Failed job attempts" samples={named('queue_job_failures_total')} labels={['name']} />
        </>
      ) : null}
    </section>
  );
}
