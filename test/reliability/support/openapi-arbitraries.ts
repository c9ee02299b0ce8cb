import fc from 'fast-check';

/** A JSON document as written on the wire: object entries keep duplicate and `__proto__` keys. */
export type Json = null | boolean | number | string | Json[] | { entries: [string, Json][] };

export function serialize(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`).join(',')}}`;
}

const obj = (entries: [string, Json][]): Json => ({ entries });

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\uD800',
      '\uDFFF',
      '\u202Eevil',
      '🦄💥',
      '\u00e9\u0301',
      'null',
      'undefined',
      'true',
      '0',
      '-1',
      "' OR 1=1 --",
      '"; DROP TABLE subscribers; --',
      '../../etc/passwd',
      '%00',
      '%2e%2e%2f',
      '{{7*7}}',
      '{% raw %}',
      '${process.exit()}',
      '<script>alert(1)</script>',
      'NaN',
      'Infinity',
      '1e309',
      '9'.repeat(40),
      '2024-13-45T99:99:99Z',
      'x'.repeat(5_000),
      '__proto__',
      'constructor',
      'prototype',
    ),
  },
  { weight: 1, arbitrary: fc.nat({ max: 60_000 }).map((n) => 'y'.repeat(n)) },
);

const hostileKey: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '$where',
      '$gt',
      '',
      ' ',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, -0),
);

const leaf: fc.Arbitrary<Json> = fc.oneof(fc.constant(null), fc.boolean(), hostileNumber, hostileString);

/** Any JSON, with hostile keys and values, a few levels deep. */
export const anyJson: fc.Arbitrary<Json> = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('json'), { maxLength: 5 }),
    fc.array(fc.tuple(hostileKey, tie('json')), { maxLength: 5 }).map(obj),
  ),
})).json;

/** Nesting far deeper than any schema: arrays and objects, thousands of levels. */
export const deepNesting: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

export const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":1}{"b":2}',
  '   ',
  '"\\u0000"',
  '{"__proto__":{"polluted":true}}',
);

/** An OpenAPI schema object (the subset Nest's swagger plugin emits). */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  example?: unknown;
  minimum?: number;
  maximum?: number;
}

function toJson(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') return obj(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  return value as Json;
}

/**
 * Values shaped like the schema, where any node may be replaced by hostile JSON (a wrong type),
 * required fields may be missing and unknown or prototype keys may be added.
 */
export function schemaArbitrary(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<Json> {
  return fc.oneof({ weight: 5, arbitrary: shaped(schema, components, depth) }, { weight: 1, arbitrary: anyJson });
}

function shaped(schema: Schema, components: Record<string, Schema>, depth: number): fc.Arbitrary<Json> {
  if (schema.$ref) return schemaArbitrary(components[schema.$ref.split('/').pop()!], components, depth);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((alternative) => schemaArbitrary(alternative, components, depth)));
  if (schema.allOf?.length) return schemaArbitrary(schema.allOf[0], components, depth);
  if (depth > 6) return leaf;
  if (schema.enum?.length)
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(schema.enum as Json[])) },
      { weight: 1, arbitrary: hostileString },
    );
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.uuid({ version: 7 }), hostileString);
      if (schema.format === 'date-time')
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          hostileString,
        );
      if (schema.format === 'email') return fc.oneof(fc.emailAddress(), hostileString);
      return fc.oneof(
        { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
        { weight: 1, arbitrary: hostileString },
      );
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 1000 }), hostileNumber);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}, components, depth + 1), { maxLength: depth === 0 ? 120 : 4 });
    case 'object':
    default: {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0)
        return fc.oneof(anyJson, fc.dictionary(fc.string({ maxLength: 8 }), leaf).map(toJson));
      const required = new Set(schema.required ?? []);
      const fields = properties.map(([name, property]) =>
        fc.option(
          schemaArbitrary(property, components, depth + 1).map((value): [string, Json] => [name, value]),
          {
            freq: required.has(name) ? 12 : 2,
            nil: undefined,
          },
        ),
      );
      const extras = fc.array(fc.tuple(hostileKey, anyJson), { maxLength: 2 });
      return fc
        .tuple(fc.tuple(...fields), extras)
        .map(([present, extra]) =>
          obj([...present.filter((entry): entry is [string, Json] => entry !== undefined), ...extra]),
        );
    }
  }
}

/** A path parameter: the real resource, another uuid, or something that is no id at all. */
export function pathParamArbitrary(realValue: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(realValue) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'not-an-id',
        '0',
        '-1',
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '%',
        '%zz',
        '..',
        '.',
        '%2F',
        'a%00b',
        'x'.repeat(2_000),
      ),
    },
    { weight: 3, arbitrary: hostileString.filter((value) => value.length > 0 && value.length < 3_000) },
  );
}

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter((value) => value.length < 6_000) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '1',
      '0',
      '-1',
      '100',
      '101',
      '1000000',
      '1.5',
      'true',
      'false',
      'in_app',
      'email',
      'sms',
      'chat',
      'push',
      '2020-01-01',
      '2020-01-01T00:00:00Z',
    ),
  },
  { weight: 1, arbitrary: fc.uuid() },
);

const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return escape(value); // lone surrogates: send them percent-encoded as Latin-1 bytes
  }
};

/** A query string over the declared names plus extras: repeated, bracketed, nested and prototype keys. */
export function queryArbitrary(names: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('page') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        '__proto__[polluted]',
        'constructor[prototype][polluted]',
        'x[y][z]',
        '',
      ),
    },
  );
  const pair = fc
    .tuple(key, fc.constantFrom('', '[]', '[0]', '[a]'), queryValue)
    .map(([name, suffix, value]) => `${encode(name)}${suffix}=${encode(value)}`);
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
}

export { encode as encodePathSegment };
