import { useState } from 'react';
import { api } from '../../api/client';
import { SentNotice } from '../../ui/sent-notice';
import { FormError } from '../../ui/field';

/** Triggers the saved workflow for one subscriber with the sample payload, and links to what happened. */
export function SendTest({
  workflowId,
  payload,
}: {
  workflowId: string;
  payload: Record<string, unknown> | undefined;
}) {
  const [subscriberId, setSubscriberId] = useState('');
  const [transactionId, setTransactionId] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const send = async () => {
    try {
      const answer = await api<{ transactionId: string }>('POST', '/v1/events/trigger', {
        name: workflowId,
        to: subscriberId,
        payload: payload ?? {},
      });
      setFailure(undefined);
      setTransactionId(answer.transactionId);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The trigger failed');
    }
  };
  return (
    <div className="send-test">
      <label>
        Test subscriber id
        <input value={subscriberId} onChange={(event) => setSubscriberId(event.target.value)} />
      </label>
      <button type="button" disabled={!subscriberId} onClick={() => void send()}>
        Send test
      </button>
      <FormError message={failure} />
      <SentNotice transactionId={transactionId} />
    </div>
  );
}
