import type { Provider } from '@nestjs/common';
import { STEP_TYPES, type StepType } from '#common';
import { ChannelPreparation } from './channel-preparation.js';
import { ChatStep } from './chat.step.js';
import { DelayStep } from './delay.step.js';
import { DigestStep } from './digest.step.js';
import { DirectDelivery } from './direct-delivery.js';
import { EmailStep } from './email.step.js';
import { HttpRequestStep } from './http-request.step.js';
import { InAppStep } from './in-app.step.js';
import { PushStep } from './push.step.js';
import { SmsStep } from './sms.step.js';
import type { StepHandler } from './step-handler.js';
import { SubscriberChannelDelivery } from './subscriber-channel-delivery.js';
import { ThrottleStep } from './throttle.step.js';

/** Every step type's handler: a new step type adds its class here. */
const HANDLERS = [
  InAppStep,
  EmailStep,
  SmsStep,
  ChatStep,
  PushStep,
  DigestStep,
  DelayStep,
  ThrottleStep,
  HttpRequestStep,
];

/**
 * The handler of each step type. A step type without a handler (or with two) is a programming
 * error that would fail every job of that type: it stops the boot instead.
 */
export class StepHandlers {
  private readonly byType: ReadonlyMap<string, StepHandler>;
  /** The step types that send through the environment's integrations of their channel. */
  readonly integrationChannels: ReadonlySet<string>;

  constructor(handlers: StepHandler[], types: readonly StepType[] = STEP_TYPES) {
    const byType = new Map<string, StepHandler>();
    for (const handler of handlers) {
      if (byType.has(handler.type)) throw new Error(`Two step handlers for step type ${handler.type}`);
      byType.set(handler.type, handler);
    }
    const missing = types.filter((type) => !byType.has(type));
    if (missing.length > 0) throw new Error(`No step handler for step type ${missing.join(', ')}`);
    this.byType = byType;
    this.integrationChannels = new Set(
      handlers.filter((handler) => handler.needs.integrations).map(({ type }) => type),
    );
  }

  /** Undefined for a type the workflow validation would have refused (a row written another way). */
  of(type: string): StepHandler | undefined {
    return this.byType.get(type);
  }
}

/** The handlers, what they share, and the checked list of them. */
export const STEP_HANDLER_PROVIDERS: Provider[] = [
  ChannelPreparation,
  DirectDelivery,
  SubscriberChannelDelivery,
  ...HANDLERS,
  { provide: StepHandlers, useFactory: (...handlers: StepHandler[]) => new StepHandlers(handlers), inject: HANDLERS },
];
