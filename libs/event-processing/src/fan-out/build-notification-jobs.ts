import { CHANNELS, newId, type Channel } from '#common';
import type { JobDigest, NewJobRow, NewNotificationRow, StoredStep, TriggerEventRow, WorkflowRow } from '#dal';
import { readPath } from '../steps/read-path.js';

/** One recipient of a fan-out chunk: the internal subscriber and how it was addressed. */
export interface Recipient {
  subscriberId: string;
  externalSubscriberId: string;
  to: unknown;
  topic?: { _topicId: string; topicKey: string };
}

export const NO_DIGEST_VALUE = '';

function digestOf(step: StoredStep, payload: Record<string, unknown>): JobDigest | null {
  if (step.template.type !== 'digest') return null;
  const metadata = (step.metadata ?? {}) as Record<string, unknown>;
  const digestKey = typeof metadata.digestKey === 'string' && metadata.digestKey ? metadata.digestKey : undefined;
  const value = digestKey ? readPath(payload, digestKey) : undefined;
  return {
    ...(metadata as JobDigest),
    type: String(metadata.type ?? 'regular'),
    digestKey,
    digestValue: value === undefined || value === null ? NO_DIGEST_VALUE : typeof value === 'string' ? value : JSON.stringify(value),
  };
}

/** The notification rows of a chunk and, per notification, one job per workflow step. */
export function buildNotifications(event: TriggerEventRow, workflow: WorkflowRow, recipients: Recipient[]): NewNotificationRow[] {
  const payload = (event.request.payload ?? {}) as Record<string, unknown>;
  const channels = [...new Set(workflow.steps.filter((step) => step.active).map((step) => step.template.type))].filter((type): type is Channel =>
    (CHANNELS as readonly string[]).includes(type),
  );
  return recipients.map((recipient) => ({
    id: newId(),
    environmentId: event.environmentId,
    organizationId: event.organizationId,
    eventId: event.id,
    subscriberId: recipient.subscriberId,
    workflowId: workflow.id,
    transactionId: event.transactionId,
    payload,
    channels,
    to: recipient.to,
    topics: recipient.topic ? [recipient.topic] : [],
    tags: workflow.tags,
  }));
}

/**
 * Inactive steps are stored as `skipped` so the list shows them; the first active step is `queued`
 * (its queue entry is added after the transaction commits), the rest wait as `pending`.
 */
export function buildJobs(event: TriggerEventRow, workflow: WorkflowRow, notificationIds: { id: string; subscriberId: string }[]): NewJobRow[] {
  const payload = (event.request.payload ?? {}) as Record<string, unknown>;
  const overrides = (event.request.overrides ?? {}) as Record<string, unknown>;
  const firstActive = workflow.steps.findIndex((step) => step.active);
  return notificationIds.flatMap((notification) =>
    workflow.steps.map((step, stepIndex) => ({
      id: newId(),
      environmentId: event.environmentId,
      organizationId: event.organizationId,
      notificationId: notification.id,
      subscriberId: notification.subscriberId,
      workflowId: workflow.id,
      transactionId: event.transactionId,
      stepIndex,
      step,
      type: step.template.type,
      status: !step.active ? 'skipped' : stepIndex === firstActive ? 'queued' : 'pending',
      digest: digestOf(step, payload),
      payload,
      overrides,
    })),
  );
}
