import { contextEntriesOf, contextKeysOf } from '#application';
import { isChannel } from '#common';
import {
  jobIdOf,
  notificationIdOf,
  type JobDigest,
  type NewJobRow,
  type NewNotificationRow,
  type StoredStep,
  type TriggerEventRow,
  type WorkflowRow,
} from '#dal';
import { readPath } from '../steps/read-path.js';

/** One recipient of a fan-out chunk: the internal subscriber and how it was addressed. */
export interface Recipient {
  subscriberId: string;
  externalSubscriberId: string;
  to: unknown;
  topic?: { _topicId: string; topicKey: string };
}

const NO_DIGEST_VALUE = '';

function digestOf(step: StoredStep, payload: Record<string, unknown>): JobDigest | null {
  if (step.template.type !== 'digest') return null;
  const metadata = step.metadata ?? {};
  const digestKey = typeof metadata.digestKey === 'string' && metadata.digestKey ? metadata.digestKey : undefined;
  const value = digestKey ? readPath(payload, digestKey) : undefined;
  return {
    ...(metadata as JobDigest),
    type: typeof metadata.type === 'string' ? metadata.type : 'regular',
    digestKey,
    digestValue:
      value === undefined || value === null
        ? NO_DIGEST_VALUE
        : typeof value === 'string'
          ? value
          : JSON.stringify(value),
  };
}

/** Rows of one insert: the values every row shares, sent once, and what each row adds. */
export interface ChunkRows<Row> {
  shared: Partial<Row>;
  rows: Partial<Row>[];
}

/**
 * The notifications of a chunk, one per recipient. Neither they nor their jobs copy the trigger's
 * payload or overrides: readers take them from the event (`notifications.event_id`).
 */
export function buildNotifications(
  event: TriggerEventRow,
  workflow: WorkflowRow,
  recipients: Recipient[],
): ChunkRows<NewNotificationRow> {
  const channels = [...new Set(workflow.steps.filter((step) => step.active).map((step) => step.template.type))].filter(
    isChannel,
  );
  return {
    shared: {
      environmentId: event.environmentId,
      organizationId: event.organizationId,
      eventId: event.id,
      workflowId: workflow.id,
      transactionId: event.transactionId,
      channels,
      tags: workflow.tags,
      contextKeys: contextKeysOf(contextEntriesOf(event.request.context)),
    },
    rows: recipients.map((recipient) => ({
      id: notificationIdOf(event.id, recipient.subscriberId),
      subscriberId: recipient.subscriberId,
      to: recipient.to,
      topics: recipient.topic ? [recipient.topic] : [],
    })),
  };
}

/**
 * Per workflow step, the jobs of a chunk's notifications. Inactive steps are stored as `skipped` so
 * the list shows them; the first active step is `queued` (its queue entry is added after the
 * transaction commits), the rest wait as `pending`.
 */
export function buildJobs(
  event: TriggerEventRow,
  workflow: WorkflowRow,
  notifications: { id: string; subscriberId: string }[],
): ChunkRows<NewJobRow>[] {
  const payload = (event.request.payload ?? {}) as Record<string, unknown>;
  const firstActive = workflow.steps.findIndex((step) => step.active);
  return workflow.steps.map((step, stepIndex) => ({
    shared: {
      environmentId: event.environmentId,
      organizationId: event.organizationId,
      workflowId: workflow.id,
      transactionId: event.transactionId,
      stepIndex,
      step,
      type: step.template.type,
      status: !step.active ? 'skipped' : stepIndex === firstActive ? 'queued' : 'pending',
      digest: digestOf(step, payload),
    },
    rows: notifications.map((notification) => ({
      id: jobIdOf(notification.id, stepIndex),
      notificationId: notification.id,
      subscriberId: notification.subscriberId,
    })),
  }));
}
