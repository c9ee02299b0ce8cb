import { useState } from 'react';
import { api } from '../../api/client';
import { SentNotice } from '../../ui/sent-notice';
import { FormError } from '../../ui/field';
import { useWorkflows } from '../workflows/workflows-api';
import type { Integration } from './integrations-api';

/** Channels that send to what the subscriber stored per integration (webhook URLs, device tokens). */
const SUBSCRIBER_TARGETED = new Set(['chat', 'push']);

/**
 * The API has no "test an integration" call: this triggers a workflow the user picks for one subscriber,
 * with the trigger override that names this integration, so the workflow's steps of its channel go
 * through it (and through no other).
 */
export function IntegrationTestSend({ integration }: { integration: Integration }) {
  const workflows = useWorkflows();
  const [workflowId, setWorkflowId] = useState('');
  const [subscriberId, setSubscriberId] = useState('');
  const [transactionId, setTransactionId] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const send = async () => {
    try {
      const answer = await api<{ transactionId: string }>('POST', '/v1/events/trigger', {
        name: workflowId,
        to: subscriberId,
        payload: {},
        overrides: { [integration.channel]: { integrationIdentifier: integration.identifier } },
      });
      setFailure(undefined);
      setTransactionId(answer.transactionId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The trigger failed');
    }
  };
  return (
    <section className="panel" aria-labelledby="integration-test-title">
      <h2 id="integration-test-title">Send a test</h2>
      <p className="muted">
        Triggers a workflow through this integration: its {integration.channel} steps use it
        {SUBSCRIBER_TARGETED.has(integration.channel)
          ? `, sent to the subscriber's ${integration.channel} credentials for this integration (set on the subscriber's page).`
          : '.'}
      </p>
      <div className="send-test">
        <label htmlFor="integration-test-workflow">Workflow</label>
        <select
          id="integration-test-workflow"
          value={workflowId}
          onChange={(event) => setWorkflowId(event.target.value)}
        >
          <option value="">Choose a workflow</option>
          {workflows.data?.workflows.map((workflow) => (
            <option key={workflow._id} value={workflow.workflowId}>
              {workflow.name}
            </option>
          ))}
        </select>
        <label htmlFor="integration-test-subscriber">Test subscriber id</label>
        <input
          id="integration-test-subscriber"
          value={subscriberId}
          onChange={(event) => setSubscriberId(event.target.value)}
        />
        <button type="button" disabled={!workflowId || !subscriberId} onClick={() => void send()}>
          Send test
        </button>
        <FormError message={failure} />
        <SentNotice transactionId={transactionId} />
      </div>
    </section>
  );
}
