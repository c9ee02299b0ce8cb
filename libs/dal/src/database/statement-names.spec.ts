import { describe, expect, it } from '@jest/globals';
import { StatementNames } from './statement-names.js';

const text = 'SELECT * FROM jobs WHERE id = ANY($1::uuid[])';

describe('StatementNames', () => {
  it('names a text on its second use, and keeps that name', () => {
    const names = new StatementNames();
    expect(names.nameFor(text)).toBeUndefined();
    const name = names.nameFor(text);
    expect(name).toBe('ns_0');
    expect(names.nameFor(text)).toBe(name);
    expect(names.nameFor('SELECT $1::int')).toBeUndefined();
    expect(names.nameFor('SELECT $1::int')).toBe('ns_1');
  });

  it('never names a text built for the number of its values', () => {
    const names = new StatementNames();
    const inList = 'select "id" from "tenants" where "tenants"."identifier" in ($1, $2)';
    const rows = 'insert into "x" ("a", "b") values ($1, $2), ($3, $4)';
    for (let use = 0; use < 5; use++) {
      expect(names.nameFor(inList)).toBeUndefined();
      expect(names.nameFor(rows)).toBeUndefined();
    }
  });

  it('gives out no more names than its cap: later texts go unnamed, named ones keep theirs', () => {
    const names = new StatementNames(2);
    for (const statement of ['SELECT $1::int', 'SELECT $1::text']) names.nameFor(statement);
    expect(names.nameFor('SELECT $1::int')).toBe('ns_0');
    expect(names.nameFor('SELECT $1::text')).toBe('ns_1');
    names.nameFor('SELECT $1::uuid');
    expect(names.nameFor('SELECT $1::uuid')).toBeUndefined();
    expect(names.nameFor('SELECT $1::int')).toBe('ns_0');
  });

  it('names only plain queries with parameters, as pg receives them', () => {
    const names = new StatementNames();
    names.enabled = true;
    // Twice each: a name would come on the second use.
    for (let use = 0; use < 2; use++) {
      expect(names.named('BEGIN; SELECT 1', undefined)).toBe('BEGIN; SELECT 1');
      expect(names.named({ text: 'SELECT now()' }, [])).toEqual({ text: 'SELECT now()' });
      const cursor = { text, submit: () => undefined };
      expect(names.named(cursor, ['x'])).toBe(cursor);
      expect(names.named({ text: 'SELECT $1::int', name: 'mine' }, [1])).toEqual({
        text: 'SELECT $1::int',
        name: 'mine',
      });
    }
    expect(names.named(text, ['{}'])).toBe(text);
    expect(names.named(text, ['{}'])).toEqual({ text, name: 'ns_0' });
    const config = { text, values: ['{}'], rowMode: 'array' };
    expect(names.named(config, undefined)).toEqual({ ...config, name: 'ns_0' });
    // drizzle's prepared queries (UNNAMED): an empty name is none.
    expect(names.named({ text, name: '', rowMode: 'array' }, ['{}'])).toEqual({ text, name: 'ns_0', rowMode: 'array' });
  });
});
