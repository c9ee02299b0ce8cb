import { describe, expect, it } from '@jest/globals';
import type { FilterOperator } from '#common';
import { evaluateStepFilters, parseList, type FilterContext, type StepFilter } from './step-filters.js';

const context: FilterContext = {
  subscriber: {
    subscriberId: 'sub-1',
    email: 'Ada@Example.com',
    firstName: 'Ada',
    data: { plan: 'pro', seats: 12, beta: true },
  },
  payload: {
    amount: 50,
    amountText: '50',
    price: '19.99',
    country: 'FR',
    status: 'active',
    flag: false,
    empty: '',
    nothing: null,
    tags: ['news', 'billing', 'urgent'],
    codes: [1, 2, 3],
    when: '2024-06-15T12:00:00Z',
    day: '2024-06-15',
    order: { id: 'o-1', lines: [{ sku: 'A-1', qty: 2 }] },
  },
  tenant: { identifier: 'acme', data: { tier: 'gold' } },
};

function single(
  operator: FilterOperator,
  field: string,
  value: string,
  on: 'subscriber' | 'payload' | 'tenant' = 'payload',
): StepFilter[] {
  return [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ on, field, operator, value }] }];
}

type Row = [FilterOperator, string, string, boolean];

const table: Row[] = [
  // EQUAL / NOT_EQUAL: strings exact, numbers by value, booleans by their text.
  ['EQUAL', 'country', 'FR', true],
  ['EQUAL', 'country', 'fr', false],
  ['EQUAL', 'amount', '50', true],
  ['EQUAL', 'amount', '50.0', true],
  ['EQUAL', 'amountText', '50', true],
  ['EQUAL', 'amount', '51', false],
  ['EQUAL', 'flag', 'false', true],
  ['EQUAL', 'flag', 'FALSE', true],
  ['EQUAL', 'flag', 'true', false],
  ['EQUAL', 'empty', '', true],
  ['EQUAL', 'missing', '', false],
  ['EQUAL', 'nothing', 'null', false],
  ['EQUAL', 'tags', 'news', false],
  ['EQUAL', 'order.id', 'o-1', true],
  ['EQUAL', 'order.lines.0.sku', 'A-1', true],
  ['EQUAL', 'order.lines[0].qty', '2', true],
  ['NOT_EQUAL', 'country', 'DE', true],
  ['NOT_EQUAL', 'country', 'FR', false],
  ['NOT_EQUAL', 'amount', '50', false],
  ['NOT_EQUAL', 'missing', 'x', true],
  // LARGER / SMALLER / *_EQUAL: numeric when both are numbers, dates when both are ISO dates.
  ['LARGER', 'amount', '49', true],
  ['LARGER', 'amount', '50', false],
  ['LARGER', 'amount', '100', false],
  ['LARGER', 'amountText', '9', true],
  ['LARGER', 'price', '19.5', true],
  ['LARGER', 'amount', '-1', true],
  ['LARGER', 'missing', '1', false],
  ['LARGER', 'country', '5', false],
  ['LARGER', 'when', '2024-06-15T11:59:59Z', true],
  ['LARGER', 'day', '2024-06-14', true],
  ['LARGER', 'status', 'abc', true],
  ['SMALLER', 'amount', '51', true],
  ['SMALLER', 'amount', '50', false],
  ['SMALLER', 'amount', '5', false],
  ['SMALLER', 'when', '2025-01-01', true],
  ['SMALLER', 'missing', '100', false],
  ['SMALLER', 'flag', '1', false],
  ['LARGER_EQUAL', 'amount', '50', true],
  ['LARGER_EQUAL', 'amount', '49.99', true],
  ['LARGER_EQUAL', 'amount', '50.01', false],
  ['LARGER_EQUAL', 'missing', '0', false],
  ['SMALLER_EQUAL', 'amount', '50', true],
  ['SMALLER_EQUAL', 'amount', '60', true],
  ['SMALLER_EQUAL', 'amount', '49', false],
  ['SMALLER_EQUAL', 'when', '2024-06-15T12:00:00Z', true],
  // IN / NOT_IN: the field value is in a comma list or JSON array.
  ['IN', 'country', 'FR,DE,IT', true],
  ['IN', 'country', 'FR, DE , IT', true],
  ['IN', 'country', ' DE ,FR', true],
  ['IN', 'country', 'DE,IT', false],
  ['IN', 'country', '["FR","DE"]', true],
  ['IN', 'country', '["DE"]', false],
  ['IN', 'amount', '10,50,90', true],
  ['IN', 'amount', '[10, 50]', true],
  ['IN', 'amount', '10,90', false],
  ['IN', 'country', '', false],
  ['IN', 'missing', 'FR', false],
  ['IN', 'tags', 'news', false],
  ['IN', 'flag', 'true,false', true],
  ['NOT_IN', 'country', 'DE,IT', true],
  ['NOT_IN', 'country', 'FR,IT', false],
  ['NOT_IN', 'amount', '[50]', false],
  ['NOT_IN', 'missing', 'FR', true],
  // ALL_IN / ANY_IN: the field is an array containing all / any of the listed values.
  ['ALL_IN', 'tags', 'news,urgent', true],
  ['ALL_IN', 'tags', '["news","billing","urgent"]', true],
  ['ALL_IN', 'tags', 'news,sports', false],
  ['ALL_IN', 'codes', '1,3', true],
  ['ALL_IN', 'codes', '[1,4]', false],
  ['ALL_IN', 'country', 'FR', false],
  ['ALL_IN', 'missing', 'a', false],
  ['ANY_IN', 'tags', 'sports,urgent', true],
  ['ANY_IN', 'tags', '["sports","weather"]', false],
  ['ANY_IN', 'codes', '9,2', true],
  ['ANY_IN', 'codes', '7,8', false],
  ['ANY_IN', 'country', 'FR', false],
  ['ANY_IN', 'tags', '', false],
  // BETWEEN / NOT_BETWEEN: "low,high", inclusive.
  ['BETWEEN', 'amount', '10,100', true],
  ['BETWEEN', 'amount', '50,100', true],
  ['BETWEEN', 'amount', '10,50', true],
  ['BETWEEN', 'amount', '51,100', false],
  ['BETWEEN', 'amount', '1,49', false],
  ['BETWEEN', 'amount', ' 10 , 60 ', true],
  ['BETWEEN', 'amount', '[10, 60]', true],
  ['BETWEEN', 'price', '19,20', true],
  ['BETWEEN', 'amount', '10', false],
  ['BETWEEN', 'amount', 'a,b', false],
  ['BETWEEN', 'missing', '1,2', false],
  ['BETWEEN', 'when', '2024-06-01,2024-06-30', true],
  ['BETWEEN', 'when', '2024-07-01,2024-07-30', false],
  ['NOT_BETWEEN', 'amount', '51,100', true],
  ['NOT_BETWEEN', 'amount', '50,50', false],
  ['NOT_BETWEEN', 'amount', '0,100', false],
  ['NOT_BETWEEN', 'missing', '1,2', true],
  // LIKE / NOT_LIKE: case-insensitive substring.
  ['LIKE', 'status', 'act', true],
  ['LIKE', 'status', 'ACTIVE', true],
  ['LIKE', 'status', 'tiv', true],
  ['LIKE', 'status', 'inactive', false],
  ['LIKE', 'amount', '5', true],
  ['LIKE', 'missing', 'a', false],
  ['LIKE', 'status', '', true],
  ['NOT_LIKE', 'status', 'xyz', true],
  ['NOT_LIKE', 'status', 'ACT', false],
  ['NOT_LIKE', 'missing', 'a', true],
];

describe('evaluateStepFilters: operators', () => {
  it.each(table)('%s payload.%s %j → %s', (operator, field, value, expected) => {
    expect(evaluateStepFilters(single(operator, field, value), context).passed).toBe(expected);
  });

  it.each([
    ['EQUAL', 'email', 'Ada@Example.com', true],
    ['LIKE', 'email', '@example.', true],
    ['EQUAL', 'data.plan', 'pro', true],
    ['LARGER', 'data.seats', '10', true],
    ['EQUAL', 'data.beta', 'true', true],
    ['IN', 'data.plan', 'free,basic', false],
  ] as Row[])('subscriber.%s %s %j → %s', (operator, field, value, expected) => {
    expect(evaluateStepFilters(single(operator, field, value, 'subscriber'), context).passed).toBe(expected);
  });

  it('reads the tenant when given and fails when it is absent', () => {
    expect(evaluateStepFilters(single('EQUAL', 'data.tier', 'gold', 'tenant'), context).passed).toBe(true);
    expect(
      evaluateStepFilters(single('EQUAL', 'data.tier', 'gold', 'tenant'), { ...context, tenant: undefined }).passed,
    ).toBe(false);
  });

  it('treats an empty or absent payload and subscriber as missing fields', () => {
    const bare = { subscriber: null, payload: undefined };
    expect(evaluateStepFilters(single('EQUAL', 'a', 'x'), bare).passed).toBe(false);
    expect(evaluateStepFilters(single('NOT_EQUAL', 'a', 'x'), bare).passed).toBe(true);
    expect(evaluateStepFilters(single('EQUAL', 'a', 'x', 'subscriber'), bare).passed).toBe(false);
  });

  it('does not read inherited properties', () => {
    expect(evaluateStepFilters(single('EQUAL', 'constructor', 'x'), context).passed).toBe(false);
    expect(evaluateStepFilters(single('EQUAL', 'country.length', '2'), context).passed).toBe(false);
  });

  it('fails an unknown operator or target instead of throwing', () => {
    const bad = [{ value: 'AND', children: [{ on: 'payload', field: 'country', operator: 'IS_DEFINED', value: '' }] }];
    const result = evaluateStepFilters(bad, context);
    expect(result.passed).toBe(false);
    expect(result.detail).toContain('unknown operator');
    const wrongTarget = [
      { value: 'AND', children: [{ on: 'webhook', field: 'country', operator: 'EQUAL', value: 'FR' }] },
    ];
    expect(evaluateStepFilters(wrongTarget, context).passed).toBe(false);
  });
});

describe('evaluateStepFilters: combination', () => {
  const pass = { on: 'payload' as const, field: 'country', operator: 'EQUAL' as const, value: 'FR' };
  const fail = { on: 'payload' as const, field: 'country', operator: 'EQUAL' as const, value: 'DE' };
  const fail2 = { on: 'payload' as const, field: 'amount', operator: 'LARGER' as const, value: '100' };

  it('runs a step without filters', () => {
    expect(evaluateStepFilters([], context)).toEqual({ passed: true, detail: 'Step has no filters' });
    expect(evaluateStepFilters(undefined, context).passed).toBe(true);
    expect(evaluateStepFilters(null, context).passed).toBe(true);
  });

  it('passes a filter without conditions', () => {
    expect(evaluateStepFilters([{ value: 'AND', children: [] }], context).passed).toBe(true);
    expect(evaluateStepFilters([{ value: 'OR' }], context).passed).toBe(true);
  });

  it.each([
    ['AND', [pass, pass], true],
    ['AND', [pass, fail], false],
    ['AND', [fail, pass], false],
    ['AND', [fail, fail2], false],
    ['OR', [pass, fail], true],
    ['OR', [fail, pass], true],
    ['OR', [fail, fail2], false],
    ['OR', [pass, pass], true],
    [undefined, [pass, fail], false],
    ['or', [fail, pass], true],
  ] as const)('%s of %j → %s', (combinator, children, expected) => {
    const filters = [{ value: combinator, children }];
    expect(evaluateStepFilters(filters as unknown[], context).passed).toBe(expected);
  });

  it.each([
    [[pass], false, true],
    [[pass], true, false],
    [[fail], false, false],
    [[fail], true, true],
    [[], true, false],
  ] as const)('isNegated on %j (negated %s) → %s', (children, isNegated, expected) => {
    expect(evaluateStepFilters([{ isNegated, value: 'AND', children: [...children] }], context).passed).toBe(expected);
  });

  it('negates the combined result, not each condition', () => {
    // NOT (FR AND DE) is true; (NOT FR) AND (NOT DE) would be false.
    expect(evaluateStepFilters([{ isNegated: true, value: 'AND', children: [pass, fail] }], context).passed).toBe(true);
    // NOT (FR OR DE) is false.
    expect(evaluateStepFilters([{ isNegated: true, value: 'OR', children: [pass, fail] }], context).passed).toBe(false);
  });

  it('runs the step when any filter passes', () => {
    expect(evaluateStepFilters([{ children: [fail] }, { children: [pass] }], context).passed).toBe(true);
    expect(evaluateStepFilters([{ children: [fail] }, { children: [fail2] }], context).passed).toBe(false);
    expect(evaluateStepFilters([{ children: [fail] }, { isNegated: true, children: [fail2] }], context).passed).toBe(
      true,
    );
  });
});

describe('evaluateStepFilters: detail', () => {
  it('names the failing condition with its actual value', () => {
    const result = evaluateStepFilters(single('EQUAL', 'country', 'DE'), context);
    expect(result.passed).toBe(false);
    expect(result.detail).toBe('Filter failed: payload.country EQUAL "DE" (actual: "FR")');
  });

  it('says when the field is missing', () => {
    expect(evaluateStepFilters(single('LARGER', 'score', '3'), context).detail).toContain(
      'payload.score LARGER "3" (actual: missing)',
    );
  });

  it('names only the failing conditions of an AND and every condition of a failing OR', () => {
    const and = evaluateStepFilters(
      [
        {
          value: 'AND',
          children: [
            { on: 'payload', field: 'country', operator: 'EQUAL', value: 'FR' },
            { on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'free' },
          ],
        },
      ],
      context,
    );
    expect(and.detail).toContain('subscriber.data.plan EQUAL "free" (actual: "pro")');
    expect(and.detail).not.toContain('payload.country');
    const or = evaluateStepFilters(
      [
        {
          value: 'OR',
          children: [
            { on: 'payload', field: 'country', operator: 'EQUAL', value: 'DE' },
            { on: 'payload', field: 'amount', operator: 'SMALLER', value: '5' },
          ],
        },
      ],
      context,
    );
    expect(or.detail).toContain('none of payload.country EQUAL "DE"');
    expect(or.detail).toContain('payload.amount SMALLER "5" (actual: 50)');
  });

  it('numbers the filters when there are several', () => {
    const result = evaluateStepFilters(
      [...single('EQUAL', 'country', 'DE'), ...single('EQUAL', 'country', 'IT')],
      context,
    );
    expect(result.detail).toMatch(/Filter 1 failed: .*; Filter 2 failed: /);
  });

  it('explains a negated filter', () => {
    const result = evaluateStepFilters(
      [{ isNegated: true, children: [{ on: 'payload', field: 'country', operator: 'EQUAL', value: 'FR' }] }],
      context,
    );
    expect(result.passed).toBe(false);
    expect(result.detail).toContain('negated filter, and it matched: payload.country EQUAL "FR"');
  });

  it('says which filter passed', () => {
    const result = evaluateStepFilters(
      [...single('EQUAL', 'country', 'DE'), ...single('EQUAL', 'country', 'FR')],
      context,
    );
    expect(result).toEqual({ passed: true, detail: 'Filter 2 passed: payload.country EQUAL "FR" (actual: "FR")' });
  });
});

describe('parseList', () => {
  it.each([
    ['a,b', ['a', 'b']],
    [' a , b ', ['a', 'b']],
    ['["a","b"]', ['a', 'b']],
    ['[1,2]', ['1', '2']],
    ['[not json', ['[not json']],
    ['', []],
    ['single', ['single']],
  ])('%j → %j', (input, expected) => {
    expect(parseList(input)).toEqual(expected);
  });
});

describe('evaluateStepFilters: list operators stay linear', () => {
  const SIZE = 10_000;
  // Neither side shares a value with the other: every pair would be compared by a nested loop.
  const payload = {
    arr: Array.from({ length: SIZE }, (_, i) => `item-${i}`),
    nums: Array.from({ length: SIZE }, (_, i) => i),
    word: 'absent',
  };
  const disjoint = Array.from({ length: SIZE }, (_, i) => `other-${i}`).join(',');
  const numbersAbove = JSON.stringify(Array.from({ length: SIZE }, (_, i) => SIZE + i));
  const sameNumbers = Array.from({ length: SIZE }, (_, i) => `${i}.0`).join(',');

  /** The fastest of three runs, so a busy machine or the first JIT pass does not decide (a pairwise loop took 130 s a run). */
  function fastest(filters: StepFilter[]): { ms: number; passed: boolean } {
    let ms = Infinity;
    let passed = false;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      passed = evaluateStepFilters(filters, { subscriber: null, payload }).passed;
      ms = Math.min(ms, performance.now() - started);
      if (ms > 1000) break;
    }
    return { ms, passed };
  }

  it.each([
    ['ANY_IN', 'arr', 'no common value', disjoint, false],
    ['ANY_IN', 'nums', 'no common number', numbersAbove, false],
    ['ALL_IN', 'arr', 'every value present', payload.arr.join(','), true],
    ['ALL_IN', 'nums', 'every number present as "n.0"', sameNumbers, true],
    ['ALL_IN', 'arr', 'the last value missing', `${payload.arr.slice(1).join(',')},missing`, false],
    ['IN', 'word', 'no match', disjoint, false],
    ['NOT_IN', 'word', 'no match', disjoint, true],
    ['BETWEEN', 'word', 'not two bounds', disjoint, false],
    ['NOT_BETWEEN', 'word', 'not two bounds', disjoint, true],
  ] as [FilterOperator, string, string, string, boolean][])(
    '%s payload.%s, 10,000 items × 10,000 values (%s): in well under 100 ms',
    (operator, field, _case, value, expected) => {
      const { ms, passed } = fastest(single(operator, field, value));
      expect(passed).toBe(expected);
      expect(ms).toBeLessThan(100);
    },
  );

  it('compares by meaning in both directions, as the pairwise comparison did', () => {
    const data = { payload: { mixed: [1, '2', true, 'x', null, { a: 1 }, [3]], flags: [false] }, subscriber: null };
    const check = (operator: FilterOperator, field: string, value: string) =>
      evaluateStepFilters(single(operator, field, value), data).passed;
    expect(check('ALL_IN', 'mixed', '1.0, 2, TRUE, x')).toBe(true);
    expect(check('ANY_IN', 'mixed', '[2.00]')).toBe(true);
    expect(check('ANY_IN', 'mixed', 'null')).toBe(false);
    expect(check('ANY_IN', 'mixed', '3')).toBe(false);
    expect(check('ANY_IN', 'mixed', 'X')).toBe(false);
    expect(check('ANY_IN', 'flags', ' False ')).toBe(true);
    expect(check('ANY_IN', 'flags', '0')).toBe(false);
    expect(check('ALL_IN', 'mixed', '')).toBe(true);
    expect(check('ALL_IN', 'mixed', 'x,x,1,1')).toBe(true);
  });
});
