import { Injectable } from '@nestjs/common';
import { EmailLayouts, emailBody, missingKeysDetail } from '#application';
import { isEmailAddress } from '#common';
import type { LayoutRow } from '#dal';
import { record, templateVariables, type StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { text, type Rendered, ChannelPreparation } from './channel-step.js';
import { DirectDelivery, type DirectChannel } from './direct-delivery.js';
import type { StepHandler } from './step-handler.js';

const EMAIL: DirectChannel = {
  address: (subscriber) => subscriber?.email,
  missing: 'an email address',
  addressField: (email) => ({ email }),
  // The API refuses such addresses; one written another way (older data, SQL) must still reach no other mailbox.
  refusal: (address) =>
    isEmailAddress(address)
      ? undefined
      : 'The subscriber email address is not one valid address (a list, a line break or a display name): not sent',
  providerMessage: (to, rendered: Rendered) => ({
    channel: 'email',
    to,
    subject: text(rendered.subject),
    ...emailBody(rendered.content),
  }),
  content: (rendered) => (Array.isArray(rendered.content) ? (rendered.content as unknown[]) : text(rendered.content)),
};

@Injectable()
export class EmailStep implements StepHandler {
  readonly type = 'email';
  readonly claims = true;

  constructor(
    private readonly preparation: ChannelPreparation,
    private readonly delivery: DirectDelivery,
    private readonly layouts: EmailLayouts,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    // The HTML content's variables are escaped; blocks are escaped when they become HTML.
    const prepared = await this.preparation.prepare(context);
    if ('done' in prepared) return prepared.done;
    const { job } = context;
    const layout = await this.layouts.resolve(job.environmentId, job.step);
    // In a layout, the message keeps the whole HTML the subscriber received, as Novu stores it.
    const rendered = layout ? await this.inLayout(context, layout, prepared.rendered) : prepared.rendered;
    return this.delivery.deliver(context, rendered, EMAIL);
  }

  private async inLayout(context: StepContext, layout: LayoutRow, rendered: Rendered): Promise<Rendered> {
    const { html, untranslated } = await this.layouts.render(
      layout,
      emailBody(rendered.content).html,
      templateVariables(context),
    );
    if (untranslated) record(context, { status: 'Warning', detail: `Layout: ${missingKeysDetail(untranslated)}` });
    return { ...rendered, content: html };
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
