import { contextKeysOf, renderedText } from '#application';
import { newId } from '#common';
import type { NewMessageRow } from '#dal';
import type { StepContext } from '../step-context.js';

/** A step's template after rendering. */
export type Rendered = Record<string, unknown>;

export const text = renderedText;

export function isDataObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message row of the job's channel; the step finisher writes it with the job's outcome. */
export function messageRow(context: StepContext, fields: Partial<NewMessageRow>): NewMessageRow {
  const { job, workflow } = context;
  return {
    id: newId(),
    environmentId: job.environmentId,
    organizationId: job.organizationId,
    notificationId: job.notificationId,
    jobId: job.id,
    subscriberId: job.subscriberId,
    workflowId: job.workflowId,
    templateIdentifier: workflow?.identifier ?? null,
    transactionId: job.transactionId,
    channel: job.type,
    // The workflow's tags at sending time: the inbox filters messages on them.
    tags: workflow?.tags ?? [],
    contextKeys: contextKeysOf(context.triggerContext ?? {}),
    // Set here rather than by the database, so that the row in hand is the row stored (see asStoredMessage).
    createdAt: context.now,
    updatedAt: context.now,
    ...fields,
  };
}
