import { Injectable } from '@nestjs/common';
import { withoutUnsafeUrls, type CtaUrl } from '#application';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { isDataObject, messageRow, text, type Rendered, ChannelPreparation } from './channel-step.js';
import type { StepHandler } from './step-handler.js';

/** Long enough to recognise the url in the detail, short enough that a payload cannot flood it. */
const SHOWN_URL_LENGTH = 200;

function removedUrlDetail({ path, url }: CtaUrl): string {
  const shown = url.length > SHOWN_URL_LENGTH ? `${url.slice(0, SHOWN_URL_LENGTH)}…` : url;
  return `cta.${path} ${JSON.stringify(shown)} was removed: only http(s) and relative URLs reach the inbox`;
}

/**
 * A rendered url can be anything its variables hold (`{{payload.url}}` = `javascript:...`), so the
 * urls a client would open are checked here, after rendering: an unsafe one is dropped with a
 * warning and the message is still delivered. Literal urls are refused when a workflow is saved;
 * a workflow saved before that check is caught here too.
 */
function safeCta(context: StepContext, rendered: unknown): Record<string, unknown> {
  const { cta, removed } = withoutUnsafeUrls(typeof rendered === 'object' && rendered !== null ? rendered : {});
  for (const url of removed) record(context, { status: 'Warning', source: 'Payload', detail: removedUrlDetail(url) });
  return cta as Record<string, unknown>;
}

/** The in-app message, in the same shape whatever the step's template holds. */
export function inAppOutcome(context: StepContext, rendered: Rendered): StepOutcome {
  const row = messageRow(context, {
    subject: rendered.subject === undefined ? null : text(rendered.subject),
    content: text(rendered.content),
    cta: safeCta(context, rendered.cta),
    // The step's own data object (Novu's in-app `data`), rendered like the rest: the inbox shows and filters it.
    data: isDataObject(rendered.data) ? rendered.data : null,
    status: 'sent',
    deliveredAt: [context.now.toISOString()],
    providerId: 'novu',
  });
  record(context, { status: 'Success', detail: 'Message created', providerId: 'novu' });
  return outcome.completed({ providerId: 'novu', messages: [row] });
}

/** in_app: the message row is the delivery; nothing leaves the database, so the job needs no claim. */
@Injectable()
export class InAppStep implements StepHandler {
  readonly type = 'in_app';
  readonly claims = false;

  constructor(private readonly preparation: ChannelPreparation) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const prepared = await this.preparation.prepare(context);
    return 'done' in prepared ? prepared.done : inAppOutcome(context, prepared.rendered);
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
