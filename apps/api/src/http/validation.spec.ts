import 'reflect-metadata';
import { describe, expect, it, jest } from '@jest/globals';
import { getMetadataStorage, IsInt, IsOptional, IsString, MetadataStorage, validateSync } from 'class-validator';
import { memoizeValidationMetadata } from './validation.js';

/**
 * memoizeValidationMetadata replaces two methods of class-validator's metadata storage, which are
 * not its public API. These tests pin what that relies on, so that a class-validator upgrade that
 * changes it fails here instead of validating with stale or wrong rules.
 */

let unrelatedChecks = 0;

/** A registered class no other class extends: a lookup that tests it tests every registered class. */
class Unrelated {
  static [Symbol.hasInstance](instance: unknown): boolean {
    unrelatedChecks++;
    return Function.prototype[Symbol.hasInstance].call(this, instance);
  }

  @IsString()
  name: string;
}

class Base {
  @IsString()
  id: string;
}

class Order extends Base {
  @IsInt()
  count: number;

  @IsOptional()
  @IsString({ groups: ['strict'] })
  note?: string;
}

const storage = getMetadataStorage();
const original = MetadataStorage.prototype;
/** class-validator's own lookup, as it is without the memo. */
const unmemoized = original.getTargetValidationMetadatas.bind(storage);
type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
const OPTIONS = { forbidUnknownValues: false, whitelist: true, validationError: { target: false, value: true } };

function order(values: Partial<Order> & Record<string, unknown>): Order {
  return Object.assign(new Order(), values);
}

/** Schema, always, strictGroups and groups: the options the memo keys its answers on. */
const lookups: [string, boolean, boolean, string[] | undefined][] = [
  ['', false, false, undefined],
  ['', true, false, undefined],
  ['', false, true, undefined],
  ['', false, false, ['strict']],
  ['', true, true, ['strict', 'other']],
];

describe('class-validator metadata memo', () => {
  it("class-validator's own lookup still tests every registered class, on every call (drop the memo when it no longer does)", () => {
    expect(Unrelated).toBeDefined();
    unmemoized(Order, '', false, false);
    const before = unrelatedChecks;
    unmemoized(Order, '', false, false);
    expect(unrelatedChecks - before).toBe(1);
  });

  it('the replaced methods keep the parameters the cache key is built from', () => {
    expect(typeof original.getTargetValidationMetadatas).toBe('function');
    expect(original.getTargetValidationMetadatas.length).toBe(5);
    expect(typeof original.groupByPropertyName).toBe('function');
    expect(original.groupByPropertyName.length).toBe(1);
  });

  it('validation resolves rules through the storage methods, grouping the array the lookup returned', () => {
    memoizeValidationMetadata();
    const lookup = jest.spyOn(storage, 'getTargetValidationMetadatas');
    const group = jest.spyOn(storage, 'groupByPropertyName');
    try {
      validateSync(order({ id: 'o-1', count: 1 }), { ...OPTIONS, groups: ['strict'], strictGroups: true });
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(lookup.mock.calls[0]).toEqual([Order, undefined, false, true, ['strict']]);
      expect(group).toHaveBeenCalledTimes(1);
      expect(group.mock.calls[0][0]).toBe(lookup.mock.results[0].value);
    } finally {
      lookup.mockRestore();
      group.mockRestore();
    }
  });

  it("memoized rules are class-validator's own, per options, and stay unchanged by validation", () => {
    memoizeValidationMetadata();
    const expected = lookups.map((args) => unmemoized(Order, ...args));
    const memoized = lookups.map((args) => storage.getTargetValidationMetadatas(Order, ...args));
    expect(memoized).toEqual(expected);
    expect([...new Set(memoized[0].map((rule) => rule.propertyName))].sort()).toEqual(['count', 'id', 'note']);
    const snapshot = (rules: Rules) => rules.map((rule) => ({ ...rule }));
    const before = memoized.map(snapshot);

    for (let i = 0; i < 3; i++) {
      const invalid = order({ id: 7 as never, count: 1.5, extra: true });
      const errors = validateSync(invalid, OPTIONS);
      expect(errors.map((error) => [error.property, Object.keys(error.constraints ?? {})])).toEqual([
        ['count', ['isInt']],
        ['id', ['isString']],
      ]);
      expect(invalid).not.toHaveProperty('extra');
      const strict = validateSync(order({ id: 'o-1', count: 1, note: 3 as never }), { ...OPTIONS, groups: ['strict'] });
      expect(strict.map((error) => error.property)).toEqual(['note']);
    }

    const again = lookups.map((args) => storage.getTargetValidationMetadatas(Order, ...args));
    again.forEach((rules, i) => expect(rules).toBe(memoized[i]));
    expect(again.map(snapshot)).toEqual(before);
    expect(storage.groupByPropertyName(memoized[0])).toBe(storage.groupByPropertyName(memoized[0]));
    expect(storage.groupByPropertyName(memoized[0])).toEqual(original.groupByPropertyName.bind(storage)(expected[0]));
  });
});
