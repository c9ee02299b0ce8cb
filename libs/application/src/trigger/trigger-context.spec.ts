import { describe, expect, it } from '@jest/globals';
import { contextEntriesOf, contextKeysOf } from './trigger-context.js';

describe('trigger context', () => {
  it('reads ids and {id, data} entries as type:id keys, sorted', () => {
    const entries = contextEntriesOf({
      tenant: 'acme',
      project: { id: 'p1', data: { name: 'Apollo' } },
      app: { id: 'a' },
    });
    expect(entries).toEqual({
      tenant: { id: 'acme', data: {} },
      project: { id: 'p1', data: { name: 'Apollo' } },
      app: { id: 'a', data: {} },
    });
    expect(contextKeysOf(entries)).toEqual(['app:a', 'project:p1', 'tenant:acme']);
  });

  it('no context, or entries of another shape, give nothing', () => {
    for (const context of [undefined, null, 'acme', ['tenant'], {}])
      expect(contextKeysOf(contextEntriesOf(context))).toEqual([]);
    expect(contextEntriesOf({ tenant: 5, project: { data: {} }, app: { id: 'a', data: 'x' } })).toEqual({
      app: { id: 'a', data: {} },
    });
  });
});
