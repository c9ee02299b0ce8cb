import { describe, expect, it } from '@jest/globals';
import type { Schedule } from '#application';
import type { JobRow, StoredStep, SubscriberRow } from '#dal';
import type { StepContext } from './step-context.js';
import { filtersOutcome, recordVariant, scheduleOutcome, withVariant } from './step-gates.js';

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

const planIs = (value: string) => [
  { type: 'GROUP', value: 'AND', children: [{ on: 'payload', field: 'plan', operator: 'EQUAL', value }] },
];

const variant = (id: string, content: string, filters: unknown[], extra: Partial<StoredStep> = {}): StoredStep => ({
  _id: id,
  name: id,
  active: true,
  shouldStopOnFail: false,
  template: { type: 'in_app', content },
  filters,
  ...extra,
});

function variantContext(plan: string, variants?: StoredStep[]): StepContext {
  const step = { ...variant('step', 'own', []), name: 'greeting', shouldStopOnFail: true, variants };
  const job = { id: 'job', type: 'in_app', step } as unknown as JobRow;
  return { job, payload: { plan }, now: new Date(), details: [] };
}

describe('step variants, chosen without a database', () => {
  const variants = [
    variant('off', 'off', planIs('pro'), { active: false }),
    variant('unfiltered', 'never', []),
    variant('pro', 'for pro', planIs('pro'), { metadata: { note: 'pro' }, replyCallback: { active: true } }),
    variant('pro-too', 'second pro', planIs('pro')),
  ];

  it('the first active variant whose filters match replaces template, metadata and reply callback, under the step id', () => {
    const chosen = withVariant(variantContext('pro', variants));
    expect(chosen.variant).toEqual({ index: 2, id: 'pro', name: 'pro' });
    expect(chosen.job.step).toMatchObject({
      _id: 'step',
      name: 'greeting',
      shouldStopOnFail: true,
      template: { type: 'in_app', content: 'for pro' },
      metadata: { note: 'pro' },
      replyCallback: { active: true },
    });
    recordVariant(chosen);
    expect(chosen.details).toEqual([
      { status: 'Success', source: 'Internal', detail: 'Variant 2 "pro" (pro) selected: its filters matched' },
    ]);
  });

  it('no match, or no variants: the step itself, and no detail', () => {
    for (const unchanged of [variantContext('free', variants), variantContext('pro', []), variantContext('pro')]) {
      const result = withVariant(unchanged);
      expect(result).toBe(unchanged);
      expect(result.job.step.template.content).toBe('own');
      recordVariant(result);
      expect(result.details).toEqual([]);
    }
  });
});
