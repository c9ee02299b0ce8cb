import { describe, expect, it } from '@jest/globals';
import { DomainError } from '#common';
import {
  subscriptionAllows,
  toStoredPreferences,
  type StoredSubscriptionPreference,
} from './subscription-preferences.js';

const workflow = { id: '0190a1b2-0000-7000-8000-000000000001', identifier: 'invoice', tags: ['billing'] };
const data = () => ({ payload: { amount: 120 }, subscriber: { data: { plan: 'pro' } }, actor: null, context: {} });

function fieldOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    if (error instanceof DomainError) return Object.keys(error.fieldErrors ?? {})[0];
    throw error;
  }
  return undefined;
}

describe('toStoredPreferences', () => {
  it('stores every form Novu sends as one shape', () => {
    expect(
      toStoredPreferences([
        'invoice',
        { workflowId: 'receipt', enabled: false },
        { filter: { tags: ['billing', 'billing'], workflowIds: ['a'] }, condition: { '>': [{ var: 'payload.x' }, 1] } },
      ]),
    ).toEqual([
      { workflowIds: ['invoice'], enabled: true },
      { workflowIds: ['receipt'], enabled: false },
      { workflowIds: ['a'], tags: ['billing'], enabled: true, condition: { '>': [{ var: 'payload.x' }, 1] } },
    ]);
    expect(toStoredPreferences(undefined)).toBeNull();
    expect(toStoredPreferences([])).toBeNull();
  });

  it.each([
    [[{ workflowId: 'a', filter: { tags: ['x'] } }], 'preferences.0'],
    [[{}], 'preferences.0'],
    [[42], 'preferences.0'],
    [[{ workflowId: 'a', extra: 1 }], 'preferences.0.extra'],
    [[{ workflowId: 'a', enabled: 'yes' }], 'preferences.0.enabled'],
    [[{ workflowId: '' }], 'preferences.0.workflowId'],
    [[{ filter: { tags: 'billing' } }], 'preferences.0.filter.tags'],
    [[{ filter: { other: [] } }], 'preferences.0.filter.other'],
    [['a', { workflowId: 'a', condition: [] }], 'preferences.1.condition'],
    [[{ workflowId: 'a', condition: { method: [{ var: 'payload' }, 'toString'] } }], 'preferences.0.condition'],
    [[{ workflowId: 'a', condition: { cat: ['a', 'b'] } }], 'preferences.0.condition'],
    [[{ workflowId: 'a', condition: { map: [[1], { var: '' }] } }], 'preferences.0.condition'],
    [[{ workflowId: 'a', condition: { all: [[1], { none: [[1], true] }] } }], 'preferences.0.condition'],
    [Array.from({ length: 21 }, () => 'a'), 'preferences'],
  ])('refuses %j at %s', (input, path) => {
    expect(fieldOf(() => toStoredPreferences(input))).toBe(path);
  });

  it('bounds a condition by size and depth', () => {
    let deep: unknown = { var: 'payload.x' };
    for (let i = 0; i < 10; i++) deep = { '!': [deep] };
    expect(fieldOf(() => toStoredPreferences([{ workflowId: 'a', condition: deep }]))).toBe('preferences.0.condition');
    const large = { in: ['x', 'y'.repeat(4100)] };
    expect(fieldOf(() => toStoredPreferences([{ workflowId: 'a', condition: large }]))).toBe('preferences.0.condition');
  });
});

describe('subscriptionAllows', () => {
  const allows = (preferences: StoredSubscriptionPreference[] | null) =>
    subscriptionAllows(preferences, workflow, data);

  it('lets every trigger through without preferences', () => {
    expect(allows(null)).toBe(true);
    expect(allows([])).toBe(true);
  });

  it('matches by identifier, internal id or tag; no matching entry stops the trigger', () => {
    expect(allows([{ workflowIds: ['invoice'], enabled: true }])).toBe(true);
    expect(allows([{ workflowIds: [workflow.id], enabled: true }])).toBe(true);
    expect(allows([{ tags: ['billing'], enabled: true }])).toBe(true);
    expect(allows([{ workflowIds: ['other'], enabled: true }])).toBe(false);
  });

  it('lets the last entry naming the workflow decide', () => {
    expect(
      allows([
        { tags: ['billing'], enabled: true },
        { workflowIds: ['invoice'], enabled: false },
      ]),
    ).toBe(false);
    expect(
      allows([
        { workflowIds: ['invoice'], enabled: false },
        { tags: ['billing'], enabled: true },
      ]),
    ).toBe(true);
  });

  it('evaluates the condition over the trigger and the member', () => {
    const rule = (condition: Record<string, unknown>) => [{ workflowIds: ['invoice'], enabled: true, condition }];
    expect(allows(rule({ '>': [{ var: 'payload.amount' }, 100] }))).toBe(true);
    expect(allows(rule({ '>': [{ var: 'payload.amount' }, 200] }))).toBe(false);
    expect(allows(rule({ '==': [{ var: 'subscriber.data.plan' }, 'pro'] }))).toBe(true);
    expect(allows(rule({ '==': [{ var: 'actor.subscriberId' }, 'x'] }))).toBe(false);
    // A rule json-logic cannot run does not hold.
    expect(allows(rule({ unknownOperator: [] }))).toBe(false);
  });
});
