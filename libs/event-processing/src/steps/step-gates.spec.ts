import { describe, expect, it } from '@jest/globals';
import type { Schedule } from '#application';
import type { JobRow, SubscriberRow } from '#dal';
import type { StepContext } from './step-context.js';
import { filtersOutcome, scheduleOutcome } from './step-gates.js';

// 2024-01-01 is a Monday.
const nineToFive = { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] };
const weekdays: Schedule = { isEnabled: true, weeklySchedule: { monday: nineToFive, tuesday: nineToFive } };

function context(now: string, filters: unknown[] = []): StepContext {
  const job = { type: 'email', step: { template: { type: 'email' }, filters } } as unknown as JobRow;
  const subscriber = {
    subscriberId: 'ada',
    timezone: 'UTC',
    channels: [],
    createdAt: new Date(now),
    updatedAt: new Date(now),
  } as unknown as SubscriberRow;
  return { job, subscriber, payload: { plan: 'pro' }, now: new Date(now), details: [] };
}

describe('step gates, decided without a database', () => {
  it('a step whose filters do not match is canceled with the reason', () => {
    const filtered = context('2024-01-01T10:00:00Z', [
      {
        isNegated: false,
        type: 'GROUP',
        value: 'AND',
        children: [{ on: 'payload', field: 'plan', operator: 'EQUAL', value: 'free' }],
      },
    ]);
    expect(filtersOutcome(filtered)).toEqual({ status: 'canceled' });
    expect(filtered.details[0]).toMatchObject({ status: 'Success', source: 'Internal' });
    expect(filtered.details[0].detail).toMatch(/^Step was skipped based on steps conditions/);
    expect(filtersOutcome(context('2024-01-01T10:00:00Z'))).toBeUndefined();
  });

  it('inside the schedule, or without an enabled one, the step runs', () => {
    expect(scheduleOutcome(context('2024-01-01T10:00:00Z'), weekdays)).toBeUndefined();
    expect(scheduleOutcome(context('2024-01-01T20:00:00Z'), undefined)).toBeUndefined();
    expect(scheduleOutcome(context('2024-01-01T20:00:00Z'), { ...weekdays, isEnabled: false })).toBeUndefined();
  });

  it('outside the schedule the step is held until it next opens, with a Pending detail', () => {
    const held = context('2024-01-01T20:00:00Z');
    expect(scheduleOutcome(held, weekdays)).toEqual({ status: 'delayed', runAt: new Date('2024-01-02T09:00:00Z') });
    expect(held.details).toEqual([
      {
        status: 'Pending',
        source: 'Internal',
        detail: "Step held: outside the subscriber's delivery schedule (timezone UTC) until 2024-01-02T09:00:00.000Z",
      },
    ]);
  });
});
