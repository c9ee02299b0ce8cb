import { describe, expect, it } from '@jest/globals';
import { validate, version } from 'uuid';
import { derivedId, idFloorAt, idInTimeOf, isId, newId } from './ids.js';

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

describe('derivedId', () => {
  const parent = newId();

  it('is a valid UUIDv7 carrying the parent time, the same for the same parent and key', () => {
    const id = derivedId(parent, 'subscriber-1');
    expect(validate(id) && version(id) === 7).toBe(true);
    expect(id.slice(0, 13)).toBe(parent.slice(0, 13));
    expect(derivedId(parent, 'subscriber-1')).toBe(id);
  });

  it('gives the id it gave in earlier versions: a retried write after an upgrade finds its row', () => {
    expect(derivedId('01a22984-9877-7219-ba80-c48bafdc8bf0', 'subscriber-1')).toBe(
      '01a22984-9877-7afe-a5cc-199abed431cc',
    );
  });

  it('differs by key and by parent', () => {
    const ids = new Set(Array.from({ length: 10_000 }, (_, index) => derivedId(parent, String(index))));
    expect(ids.size).toBe(10_000);
    expect(derivedId(newId(), 'subscriber-1')).not.toBe(derivedId(parent, 'subscriber-1'));
  });

  it('sorts at or after the floor of its parent millisecond and before the next one', () => {
    const msecs = parseInt(parent.replace(/-/g, '').slice(0, 12), 16);
    const id = derivedId(parent, 'x');
    expect(idFloorAt(new Date(msecs)) <= id).toBe(true);
    expect(id < idFloorAt(new Date(msecs + 1))).toBe(true);
  });
});

describe('idInTimeOf', () => {
  it("is a new, valid UUIDv7 every time, inside its parent's millisecond, in the order made", () => {
    const parent = derivedId(newId(), 'step-0');
    const msecs = parseInt(parent.replace(/-/g, '').slice(0, 12), 16);
    const ids = Array.from({ length: 10_000 }, () => idInTimeOf(parent));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 100)) {
      expect(validate(id) && version(id) === 7).toBe(true);
      expect(idFloorAt(new Date(msecs)) <= id && id < idFloorAt(new Date(msecs + 1))).toBe(true);
    }
  });
});
