import { describe, expect, it } from '@jest/globals';
import { STEP_TYPES } from '#common';
import type { StepHandler } from './step-handler.js';
import {
  STEP_HANDLER_CLASSES,
  STEP_HANDLER_PROVIDERS,
  StepHandlers,
  type StepHandlerClasses,
} from './step-handlers.js';

describe('StepHandlers: one handler per step type, checked by tsc', () => {
  it('the providers make a handler of every step type, found by its type', () => {
    const factory = STEP_HANDLER_PROVIDERS.find(
      (provider) => typeof provider === 'object' && 'provide' in provider && provider.provide === StepHandlers,
    ) as { inject: (new () => StepHandler)[] };
    // The handlers keep their dependencies for later: they can be made without them.
    const handlers = new StepHandlers(factory.inject.map((handlerClass) => new handlerClass()));
    for (const type of STEP_TYPES) expect(handlers.of(type)?.type).toBe(type);
    expect(handlers.of('carrier-pigeon')).toBeUndefined();
  });

  it('a table without a step type, or with a handler under another type, does not compile', () => {
    const { delay: _delay, ...withoutDelay } = STEP_HANDLER_CLASSES;
    // @ts-expect-error delay has no handler
    const incomplete: StepHandlerClasses = withoutDelay;
    // @ts-expect-error the sms handler handles sms, not email
    const swapped: StepHandlerClasses = { ...STEP_HANDLER_CLASSES, email: STEP_HANDLER_CLASSES.sms };
    expect([incomplete, swapped]).toHaveLength(2);
  });
});
