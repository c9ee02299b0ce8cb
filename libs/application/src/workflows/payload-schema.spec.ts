import { describe, expect, it } from '@jest/globals';
import { MAX_PAYLOAD_SCHEMA_BYTES, payloadErrors, payloadSchemaError } from './payload-schema.js';

describe('payloadSchemaError', () => {
  it.each([
    [{ type: 'object', properties: { a: { type: 'string' } } }],
    [{ type: 'object', required: ['a'], additionalProperties: false, properties: { a: { enum: [1, 2] } } }],
    [{}],
    [{ properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } } }],
  ])('accepts %j', (schema) => {
    expect(payloadSchemaError(schema)).toBeUndefined();
  });

  it.each([
    ['an unknown type', { type: 'nonsense' }, /not a valid JSON Schema/],
    ['a required that is not a list', { required: 'a' }, /not a valid JSON Schema/],
    ['a remote $ref', { $ref: 'https://example.com/schema.json' }, /not a valid JSON Schema/],
    ['an array', [], /JSON Schema object/],
    ['a pattern that is not a regular expression', { properties: { a: { pattern: '(' } } }, /not a regular expression/],
    ['a pattern with nested quantifiers', { properties: { a: { type: 'string', pattern: '^(a+)+$' } } }, /exponential/],
    ['a patternProperties key with nested quantifiers', { patternProperties: { '(x*)*': {} } }, /exponential/],
    ['a schema beyond the size cap', { description: 'x'.repeat(MAX_PAYLOAD_SCHEMA_BYTES) }, /at most/],
  ])('refuses %s', (_label, schema, message) => {
    expect(payloadSchemaError(schema)).toMatch(message);
  });
});

describe('payloadErrors', () => {
  const schema = {
    type: 'object',
    required: ['order'],
    properties: { order: { type: 'object', required: ['id'], properties: { id: { type: 'number' } } } },
  };

  it('is empty for a matching payload', () => {
    expect(payloadErrors(schema, { order: { id: 1 } })).toEqual({});
  });

  it('names the failing path: a wrong type, then a missing property', () => {
    expect(Object.keys(payloadErrors(schema, { order: { id: 'x' } }))).toEqual(['payload.order.id']);
    expect(Object.keys(payloadErrors(schema, { order: {} }))).toEqual(['payload.order.id']);
    expect(Object.keys(payloadErrors(schema, {}))).toEqual(['payload.order']);
  });

  it('keeps one validator per schema and refuses nothing for a schema that does not compile', () => {
    expect(payloadErrors({ $ref: '#/nowhere' }, { anything: true })).toEqual({});
  });
});
