import { describe, expect, it } from '@jest/globals';
import { contextEntriesOf, contextKeysOf, contextReferencesOf, withStoredData } from './trigger-context.js';

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

  it('asks the store for data only where the trigger gave some, and renders stored data for the others', () => {
    const context = { tenant: 'acme', app: { id: 'jira' }, region: { id: 'eu', data: { tz: 'CET' } } };
    expect(contextReferencesOf(context)).toEqual([
      { type: 'tenant', identifier: 'acme' },
      { type: 'app', identifier: 'jira' },
      { type: 'region', identifier: 'eu', data: { tz: 'CET' } },
    ]);
    const stored = new Map([
      ['tenant:acme', { data: { name: 'Acme' } }],
      ['region:eu', { data: { tz: 'stale' } }],
    ]);
    expect(withStoredData(context, stored)).toEqual({
      tenant: { id: 'acme', data: { name: 'Acme' } },
      app: { id: 'jira', data: {} },
      region: { id: 'eu', data: { tz: 'CET' } },
    });
  });
});
