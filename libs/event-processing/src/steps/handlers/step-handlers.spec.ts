import { describe, expect, it } from '@jest/globals';
import { STEP_TYPES } from '#common';
import { outcome } from '../step-outcome.js';
import type { StepHandler } from './step-handler.js';
import { StepHandlers } from './step-handlers.js';

const handler = (type: StepHandler['type']): StepHandler => ({
  type,
  needs: { preferences: false, schedule: false, integrations: false },
  claims: true,
  waits: false,
  start: () => outcome.completed(),
  resume: () => outcome.completed(),
});

describe('StepHandlers: one handler per step type, checked at boot', () => {
  it('accepts one handler for every step type and finds it by type', () => {
    const handlers = new StepHandlers(STEP_TYPES.map(handler));
    for (const type of STEP_TYPES) expect(handlers.of(type)?.type).toBe(type);
    expect(handlers.of('carrier-pigeon')).toBeUndefined();
  });

  it('refuses a list that leaves a step type without a handler, naming it', () => {
    const withoutDelay = STEP_TYPES.filter((type) => type !== 'delay').map(handler);
    expect(() => new StepHandlers(withoutDelay)).toThrow('No step handler for step type delay');
    expect(() => new StepHandlers([])).toThrow(`No step handler for step type ${STEP_TYPES.join(', ')}`);
  });

  it('refuses two handlers of one step type', () => {
    expect(() => new StepHandlers([...STEP_TYPES.map(handler), handler('email')])).toThrow(
      'Two step handlers for step type email',
    );
  });

  it('the registered list covers every step type of libs/common', async () => {
    const { STEP_HANDLER_PROVIDERS } = await import('./step-handlers.js');
    const factory = STEP_HANDLER_PROVIDERS.find(
      (provider) => typeof provider === 'object' && 'provide' in provider && provider.provide === StepHandlers,
    ) as { inject: { prototype: StepHandler }[] };
    // The handlers' type is a field set at construction: read it from instances made without dependencies.
    const types = factory.inject.map((handlerClass) => new (handlerClass as unknown as new () => StepHandler)().type);
    expect([...types].sort()).toEqual([...STEP_TYPES].sort());
  });
});
