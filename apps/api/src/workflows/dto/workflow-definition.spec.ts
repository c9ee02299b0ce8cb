import { describe, expect, it } from '@jest/globals';
import { buildSteps, slugify, templateVariables } from '#application';
import type { StoredStep } from '#dal';
import { validateWorkflowDefinition } from './validate-definition.js';

const step = (template: StoredStep['template']): StoredStep => ({
  _id: 'x',
  active: true,
  shouldStopOnFail: false,
  template,
  filters: [],
});

describe('slugify', () => {
  it.each([
    ['Welcome Email!', 'welcome-email'],
    ['  --Order  shipped--  ', 'order-shipped'],
    ['ALL_CAPS.name', 'all-caps-name'],
    ['!!!', ''],
  ])('%s → %s', (input, expected) => expect(slugify(input)).toBe(expected));
});

describe('templateVariables', () => {
  it('lists payload paths used inside Liquid tags, once, in order of first use', () => {
    const steps = [
      step({
        type: 'email',
        subject: '{{ payload.subject | upcase }}',
        content: '{% if payload.flag %}{{payload.user.name}}{% endif %} payload.outside',
      }),
      step({
        type: 'in_app',
        content: [{ type: 'text', content: '{{ payload.subject }} {{ payload.items[0].id }}' }],
        cta: { data: { url: '/{{payload.path}}' } },
      }),
      step({ type: 'sms', content: 'x', footer: '{{ payload.ignored }}' }),
    ];
    expect(templateVariables(steps, 'payload')).toEqual([
      { name: 'subject' },
      { name: 'flag' },
      { name: 'user.name' },
      { name: 'items' },
      { name: 'path' },
    ]);
  });

  it('lists subscriber paths separately', () => {
    expect(
      templateVariables([step({ type: 'sms', content: '{{ subscriber.firstName }} {{ payload.a }}' })], 'subscriber'),
    ).toEqual([{ name: 'firstName' }]);
  });
});

describe('validateWorkflowDefinition', () => {
  it('accepts each of the four metadata forms', () => {
    const { errors } = validateWorkflowDefinition({
      name: 'ok',
      steps: [
        { template: { type: 'digest' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
        { template: { type: 'digest' }, metadata: { type: 'timed', timed: { weekDays: ['monday'] } } },
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 2, unit: 'days' } },
        { template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'at' } },
      ],
    });
    expect(errors).toEqual([]);
  });

  it('names the path of each failure', () => {
    const { definition, errors } = validateWorkflowDefinition({
      name: 'bad',
      steps: [
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'ages' } },
        { template: { type: 'nope' } },
      ],
    });
    expect(definition).toBeUndefined();
    expect(errors.some((error) => error.startsWith('steps[0].metadata.unit: '))).toBe(true);
    expect(errors.some((error) => error.startsWith('steps[1].template.type: '))).toBe(true);
  });

  it('refuses waits beyond the 180-day cap, naming the field', () => {
    const wait = (metadata: Record<string, unknown>) =>
      validateWorkflowDefinition({ name: 'w', steps: [{ template: { type: String(metadata.step) }, metadata }] })
        .errors;
    expect(wait({ step: 'digest', type: 'regular', amount: 1e300, unit: 'days' })).toEqual([
      'steps[0].metadata.amount: amount × unit must be at most 180 days',
    ]);
    expect(wait({ step: 'delay', type: 'regular', amount: 181, unit: 'days' })).toEqual([
      'steps[0].metadata.amount: amount × unit must be at most 180 days',
    ]);
    expect(wait({ step: 'delay', type: 'regular', amount: 180, unit: 'days' })).toEqual([]);
    expect(
      wait({ step: 'digest', type: 'backoff', amount: 1, unit: 'hours', backoffAmount: 7, backoffUnit: 'months' }),
    ).toEqual(['steps[0].metadata.backoffAmount: backoffAmount × backoffUnit must be at most 180 days']);
    expect(wait({ step: 'digest', type: 'timed', amount: 5000, unit: 'hours' })).toEqual([
      'steps[0].metadata.amount: amount × unit must be at most 180 days',
    ]);
  });

  it('refuses a timed digest whose calendar matches no day', () => {
    const timed = (config: Record<string, unknown>) =>
      validateWorkflowDefinition({
        name: 't',
        steps: [{ template: { type: 'digest' }, metadata: { type: 'timed', unit: 'weeks', timed: config } }],
      }).errors;
    expect(timed({ weekDays: ['saturday'], monthlyType: 'on', ordinal: '1', ordinalValue: 'weekday' })).toEqual([
      'steps[0].metadata.timed: timed matches no day of the coming year: the digest would never be sent',
    ]);
    expect(timed({ weekDays: ['saturday'], monthlyType: 'on', ordinal: '1', ordinalValue: 'weekend' })).toEqual([]);
  });

  it('rejects a non-object', () => {
    expect(validateWorkflowDefinition([1]).errors).toEqual(['the file must hold one workflow object']);
  });
});

describe('buildSteps', () => {
  it('keeps ids sent back, generates the others, and by position only when asked', () => {
    const previous = buildSteps(
      validateWorkflowDefinition({ name: 'a', steps: [{ template: { type: 'sms' } }, { template: { type: 'email' } }] })
        .definition!.steps,
    );
    const definitions = validateWorkflowDefinition({
      name: 'a',
      steps: [{ template: { type: 'sms' } }, { _id: previous[1]._id, template: { type: 'email' } }],
    }).definition!.steps;
    const byId = buildSteps(definitions, previous);
    expect(byId[0]._id).not.toBe(previous[0]._id);
    expect(byId[1]._id).toBe(previous[1]._id);
    expect(buildSteps(definitions, previous, true).map((s) => s._id)).toEqual(previous.map((s) => s._id));
  });
});
