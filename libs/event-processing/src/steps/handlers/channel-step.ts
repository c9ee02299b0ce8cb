import { Injectable } from '@nestjs/common';
import { contextKeysOf, missingKeysDetail, renderedText, renderStepTemplate, TemplateEngine } from '#application';
import { MessageRepository, messageIdOf, type NewMessageRow } from '#dal';
import { record, templateVariables, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';

// What every channel step shares: the preparation before sending, and the message row it stores.

/** A step's template after rendering. */
export type Rendered = Record<string, unknown>;

export const text = renderedText;

export function isDataObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message row of the job's channel; the step finisher writes it with the job's outcome. */
export function messageRow(context: StepContext, fields: Partial<NewMessageRow>): NewMessageRow {
  const { job, workflow } = context;
  const row: Omit<NewMessageRow, 'id'> = {
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
  // One message per (job, delivery): a re-run of the job writes the same row.
  return { ...row, id: messageIdOf(job.id, row.deliveryKey ?? '') };
}

/** Delivery keys an earlier run of the job decided: sent, or failed for good. */
export interface EarlierDeliveries {
  sent: Set<string>;
  failed: Set<string>;
}

export type Prepared = { done: StepOutcome } | { rendered: Rendered; earlier: EarlierDeliveries };

/**
 * What every channel step does first: find what an earlier run of the job already sent (a message
 * row is unique per job and delivery key), then render the template.
 */
@Injectable()
export class ChannelPreparation {
  constructor(
    private readonly messages: MessageRepository,
    private readonly templates: TemplateEngine,
  ) {}

  async prepare(context: StepContext): Promise<Prepared> {
    const { job } = context;
    // The first claim of a job (attempts counts claims) cannot find messages of an earlier run.
    const existing = job.attempts > 1 ? await this.messages.findByJob(job.environmentId, job.id) : [];
    const keysOf = (status: string) =>
      new Set(existing.filter((message) => message.status === status).map((message) => message.deliveryKey));
    const earlier = { sent: keysOf('sent'), failed: keysOf('error') };
    if (earlier.sent.has('')) {
      record(context, { status: 'Success', detail: 'Message was already sent by an earlier run of this step' });
      return { done: outcome.completed() };
    }
    const rendered = await renderStepTemplate(this.templates, localizedTemplate(context), templateVariables(context));
    return { rendered, earlier };
  }
}

/**
 * The step's template with `{{t.key}}` replaced in the subscriber's locale from the workflow's
 * translations; keys found in no locale are reported in the execution details.
 */
function localizedTemplate(context: StepContext): StepContext['job']['step']['template'] {
  const { job, workflow, translations } = context;
  if (!workflow || !translations) return job.step.template;
  const localized = translations.localize(
    job.step.template,
    { resourceType: 'workflow', resourceId: workflow.identifier },
    workflow.isTranslationEnabled,
    context.subscriber?.locale,
  );
  if (localized.missing.length > 0) record(context, { status: 'Warning', detail: missingKeysDetail(localized) });
  return localized.value;
}
