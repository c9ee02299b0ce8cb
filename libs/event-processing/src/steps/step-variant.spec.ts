import { describe, expect, it } from '@jest/globals';
import type { JobRow, StoredStep } from '#dal';
import type { StepContext } from './step-context.js';
import { recordVariant, withVariant } from './step-variant.js';

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

function context(plan: string, variants?: StoredStep[]): StepContext {
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
    const chosen = withVariant(context('pro', variants));
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
    for (const unchanged of [context('free', variants), context('pro', []), context('pro')]) {
      const result = withVariant(unchanged);
      expect(result).toBe(unchanged);
      expect(result.job.step.template.content).toBe('own');
      recordVariant(result);
      expect(result.details).toEqual([]);
    }
  });
});
