import { describe, expect, it } from '@jest/globals';
import { validate, version } from 'uuid';
import { isId, newId } from './ids.js';

describe('newId', () => {
  it('returns valid, unique UUIDv7s in strictly increasing order, also within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids.slice(0, 100)) {
      expect(validate(id) && version(id) === 7 && isId(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  it('carries the current time in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const msecs = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });
});
