import { Injectable } from '@nestjs/common';
import { renderStepTemplate, TemplateEngine } from '#application';
import { MessageRepository } from '#dal';
import { record, templateVariables, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import type { Rendered } from './channel-message.js';

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
    const rendered = await renderStepTemplate(this.templates, job.step.template, templateVariables(context));
    return { rendered, earlier };
  }
}
