import type { Provider, Type } from '@nestjs/common';
import type { StepType } from '#common';
import { ChannelPreparation } from './channel-step.js';
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

/** A handler class for every step type, whose instances say they handle that type. */
export type StepHandlerClasses = { [Name in StepType]: Type<StepHandler<Name>> };

/**
 * The handler of every step type. Typed by StepType (STEP_REGISTRY in libs/common, which says why
 * the step types' registration is split across three tables), so a step type without a handler, or
 * a handler under another type's name, fails tsc.
 */
export const STEP_HANDLER_CLASSES = {
  in_app: InAppStep,
  email: EmailStep,
  sms: SmsStep,
  chat: ChatStep,
  push: PushStep,
  digest: DigestStep,
  delay: DelayStep,
  throttle: ThrottleStep,
  http_request: HttpRequestStep,
} satisfies StepHandlerClasses;

/** The handlers by step type, as the worker instantiated them. */
export class StepHandlers {
  private readonly byType: ReadonlyMap<string, StepHandler>;

  constructor(handlers: StepHandler[]) {
    this.byType = new Map(handlers.map((handler) => [handler.type, handler]));
  }

  /** Undefined for a type the workflow validation would have refused (a row written another way). */
  of(type: string): StepHandler | undefined {
    return this.byType.get(type);
  }
}

const HANDLER_CLASSES: Type<StepHandler>[] = Object.values(STEP_HANDLER_CLASSES);

/** The handlers, what they share, and the lookup by type. */
export const STEP_HANDLER_PROVIDERS: Provider[] = [
  ChannelPreparation,
  DirectDelivery,
  SubscriberChannelDelivery,
  ...HANDLER_CLASSES,
  {
    provide: StepHandlers,
    useFactory: (...handlers: StepHandler[]) => new StepHandlers(handlers),
    inject: HANDLER_CLASSES,
  },
];
