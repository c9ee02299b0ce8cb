import { Injectable } from '@nestjs/common';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { text, ChannelPreparation } from './channel-step.js';
import { DirectDelivery, type DirectChannel } from './direct-delivery.js';
import type { StepHandler } from './step-handler.js';

const SMS: DirectChannel = {
  address: (subscriber) => subscriber?.phone,
  missing: 'a phone number',
  addressField: (phone) => ({ phone }),
  providerMessage: (to, rendered) => ({ channel: 'sms', to, content: text(rendered.content) }),
  content: (rendered) => text(rendered.content),
};

@Injectable()
export class SmsStep implements StepHandler {
  readonly type = 'sms';
  readonly claims = true;

  constructor(
    private readonly preparation: ChannelPreparation,
    private readonly delivery: DirectDelivery,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const prepared = await this.preparation.prepare(context);
    return 'done' in prepared ? prepared.done : this.delivery.deliver(context, prepared.rendered, SMS);
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
