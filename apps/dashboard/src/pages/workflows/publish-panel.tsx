import { useState } from 'react';
import { api } from '../../api/client';
import { useSession } from '../../session/session';
import { FormError } from '../../ui/field';

interface ResourceDiff {
  sourceResource: { id: string } | null;
  targetResource: { id: string } | null;
  changes: { action: string; stepType?: string; diffs: { previous: unknown; new: unknown } }[];
}

const PRODUCTION = 'Production';

function changeLabel(change: ResourceDiff['changes'][number]): string {
  return `${change.action} ${change.stepType ? `${change.stepType} step` : 'workflow'}`;
}

/** Publishes this workflow from the picked environment to Production, after showing what would change there. */
export function PublishPanel({ workflowId }: { workflowId: string }) {
  const { environments, environment } = useSession();
  const production = environments.find((one) => one.name === PRODUCTION);
  const [diff, setDiff] = useState<ResourceDiff | null>();
  const [published, setPublished] = useState(false);
  const [failure, setFailure] = useState<string>();
  if (!production || production.id === environment.id) return null;

  const run = async (step: () => Promise<void>) => {
    try {
      setFailure(undefined);
      await step();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Publishing failed');
    }
  };
  const showDiff = () =>
    run(async () => {
      const answer = await api<{ resources: ResourceDiff[] }>('POST', `/v2/environments/${production.id}/diff`, {
        sourceEnvironmentId: environment.id,
      });
      setPublished(false);
      setDiff(answer.resources.find((resource) => resource.sourceResource?.id === workflowId) ?? null);
    });
  const publish = () =>
    run(async () => {
      await api('POST', `/v2/environments/${production.id}/publish`, {
        sourceEnvironmentId: environment.id,
        resources: [{ resourceType: 'workflow', resourceId: workflowId }],
      });
      setDiff(undefined);
      setPublished(true);
    });

  return (
    <section aria-labelledby="publish-title" className="panel">
      <h2 id="publish-title">Publish to {PRODUCTION}</h2>
      <button type="button" onClick={() => void showDiff()}>
        Show changes for {PRODUCTION}
      </button>
      {diff === null ? <p>{PRODUCTION} already has this version.</p> : null}
      {diff ? (
        <>
          <ul aria-label="Changes">
            {diff.changes.map((change, index) => (
              <li key={index}>{changeLabel(change)}</li>
            ))}
          </ul>
          <button type="button" onClick={() => void publish()}>
            Publish to {PRODUCTION}
          </button>
        </>
      ) : null}
      {published ? <p role="status">Published to {PRODUCTION}.</p> : null}
      <FormError message={failure} />
    </section>
  );
}
