import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson (the form a contextHash signs)', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ tenant: { id: 'acme', data: { z: 1, a: [true, null, 'x'] } }, app: 'jira' })).toBe(
      '{"app":"jira","tenant":{"data":{"a":[true,null,"x"],"z":1},"id":"acme"}}',
    );
  });

  it('escapes only backslash and double quote in strings, and leaves undefined members out', () => {
    expect(canonicalJson({ a: 'say "hi"\\', b: undefined, c: 'line\nbreak' })).toBe(
      '{"a":"say \\"hi\\"\\\\","c":"line\nbreak"}',
    );
  });

  it('orders keys by code unit, uppercase before lowercase', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3 })).toBe('{"B":2,"a":3,"b":1}');
  });
});
