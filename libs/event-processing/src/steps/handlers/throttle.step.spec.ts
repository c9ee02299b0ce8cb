import { describe, expect, it } from '@jest/globals';
import type { JobRow } from '#dal';
import type { StepContext } from '../step-context.js';
import { THROTTLED_RUN, thresholdOf, throttleKeyOf, throttleOutcome, throttleWindow } from './throttle.step.js';

const NOW = new Date('2026-01-05T10:00:00.000Z');
const HOUR = 3_600_000;

function context(): StepContext {
  return { job: { id: 'job-1' } as JobRow, payload: {}, now: NOW, details: [] };
}

describe('throttle step, decided without a database', () => {
  it('a fixed window is amount × unit', () => {
    expect(throttleWindow({ type: 'fixed', amount: 2, unit: 'hours' }, {})).toEqual({ ms: 2 * HOUR, label: '2 hours' });
  });

  it('a dynamic window is the { amount, unit } at payload[dynamicKey], checked like a saved one', () => {
    const metadata = { type: 'dynamic', dynamicKey: 'limits.window' };
    expect(throttleWindow(metadata, { limits: { window: { amount: 30, unit: 'minutes' } } })).toEqual({
      ms: HOUR / 2,
      label: '30 minutes',
    });
    for (const window of [undefined, 'PT1H', { amount: 0, unit: 'hours' }, { amount: 1, unit: 'years' }])
      expect(throttleWindow(metadata, { limits: { window } })).toEqual({
        error: 'Invalid throttle window: payload.limits.window must give a positive amount and a time unit',
      });
    expect(throttleWindow(metadata, { limits: { window: { amount: 181, unit: 'days' } } })).toEqual({
      error: 'Invalid throttle window: payload.limits.window is longer than 180 days',
    });
  });

  it('the counter key is the payload value at throttleKey, or empty', () => {
    expect(throttleKeyOf({ throttleKey: 'project.id' }, { project: { id: 'p-1' } })).toBe('p-1');
    expect(throttleKeyOf({ throttleKey: 'project.id' }, { project: { id: 7 } })).toBe('7');
    expect(throttleKeyOf({ throttleKey: 'project' }, { project: { id: 7 } })).toBe('{"id":7}');
    expect(throttleKeyOf({ throttleKey: 'project.id' }, {})).toBe('');
    expect(throttleKeyOf({}, { project: 'p' })).toBe('');
  });

  it('the threshold defaults to 1', () => {
    expect(thresholdOf({})).toBe(1);
    expect(thresholdOf({ threshold: 5 })).toBe(5);
  });

  it('below the threshold the run passes and is marked, kept for its window; at it the run is skipped and ends', () => {
    const window = { ms: HOUR, label: '1 hours' };
    const passing = context();
    expect(throttleOutcome(passing, 1, 2, window, '')).toEqual({
      status: 'completed',
      result: {
        throttleKey: '',
        passedAt: NOW.toISOString(),
        retainUntil: new Date(NOW.getTime() + HOUR).toISOString(),
      },
    });
    expect(passing.details).toEqual([
      { status: 'Success', detail: 'Throttle passed: 1 of 2 runs in the last 1 hours had passed for this subscriber' },
    ]);
    const throttled = context();
    expect(throttleOutcome(throttled, 2, 2, window, 'p-1')).toEqual({ status: 'skipped', endsRun: THROTTLED_RUN });
    expect(throttled.details).toEqual([
      {
        status: 'Warning',
        detail:
          'Throttled: 2 of 2 runs in the last 1 hours already passed for this subscriber and throttle key p-1; the following steps are skipped',
      },
    ]);
  });
});
