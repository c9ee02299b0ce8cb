import { describe, expect, it } from '@jest/globals';
import type { EnvironmentContent, LayoutRow, StoredStep, WorkflowRow } from '#dal';
import { countChanges, diffEnvironments } from './environment-diff.js';

const at = new Date('2026-01-01T00:00:00Z');

const step = (id: string, content: string): StoredStep => ({
  _id: id,
  _templateId: id,
  name: 'Inbox',
  active: true,
  shouldStopOnFail: false,
  template: { type: 'in_app', content },
  filters: [],
});

function workflow(identifier: string, fields: Partial<WorkflowRow> = {}): WorkflowRow {
  return {
    id: `${identifier}-${Math.random()}`,
    environmentId: 'env',
    organizationId: 'org',
    identifier,
    name: identifier,
    description: '',
    active: true,
    draft: false,
    critical: false,
    preferenceSettings: {},
    tags: [],
    steps: [],
    data: null,
    origin: 'novu-cloud-v1',
    payloadSchema: null,
    validatePayload: false,
    isTranslationEnabled: false,
    preferences: null,
    notificationGroupId: 'group',
    creatorId: null,
    deleted: false,
    deletedAt: null,
    deletedBy: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

function layout(layoutId: string, fields: Partial<LayoutRow> = {}): LayoutRow {
  return {
    id: `${layoutId}-${Math.random()}`,
    environmentId: 'env',
    organizationId: 'org',
    layoutId,
    name: layoutId,
    isDefault: false,
    controlValues: {},
    isTranslationEnabled: false,
    deleted: false,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

const content = (workflows: WorkflowRow[], layouts: LayoutRow[] = [], group = 'General'): EnvironmentContent => ({
  workflows,
  layouts,
  groupNames: new Map([['group', group]]),
  translations: new Map(),
});

describe('diffEnvironments', () => {
  it('leaves out what is equal apart from ids: row ids, step ids and group ids differ per environment', () => {
    const source = content([workflow('a', { steps: [step('s1', 'Hi')], notificationGroupId: 'group' })]);
    const target = content([workflow('a', { steps: [step('t1', 'Hi')] })]);
    expect(diffEnvironments(source, target)).toEqual([]);
  });

  it('reports added, modified and deleted workflows by identifier, with a change per step', () => {
    const source = content([workflow('new', { steps: [step('1', 'x')] }), workflow('changed', { name: 'Renamed' })]);
    const target = content([workflow('changed'), workflow('gone', { steps: [step('2', 'y'), step('3', 'z')] })]);
    const diffs = diffEnvironments(source, target);
    expect(diffs.map((diff) => [diff.key, diff.action])).toEqual([
      ['new', 'added'],
      ['changed', 'modified'],
      ['gone', 'deleted'],
    ]);
    expect(countChanges(diffs[0].changes)).toEqual({ added: 2, modified: 0, deleted: 0, unchanged: 0 });
    expect(diffs[1].changes[0]).toMatchObject({
      part: 'workflow',
      action: 'modified',
      previous: { name: 'changed' },
      next: { name: 'Renamed' },
    });
    expect(countChanges(diffs[2].changes)).toEqual({ added: 0, modified: 0, deleted: 3, unchanged: 0 });
  });

  it('a step change alone makes the workflow modified; steps pair by position', () => {
    const source = content([workflow('a', { steps: [step('s1', 'same'), step('s2', 'new text')] })]);
    const target = content([workflow('a', { steps: [step('t1', 'same'), step('t2', 'old text')] })]);
    const [diff] = diffEnvironments(source, target);
    expect(diff.action).toBe('modified');
    expect(diff.changes.map((change) => [change.part, change.action])).toEqual([
      ['workflow', 'unchanged'],
      ['step', 'unchanged'],
      ['step', 'modified'],
    ]);
    expect(diff.changes[2]).toMatchObject({ stepType: 'in_app', previousIndex: 1, newIndex: 1 });
  });

  it('compares the notification group by name', () => {
    const [diff] = diffEnvironments(content([workflow('a')], [], 'Billing'), content([workflow('a')], [], 'General'));
    expect(diff.changes[0]).toMatchObject({
      previous: { notificationGroup: 'General' },
      next: { notificationGroup: 'Billing' },
    });
  });

  it('matches layouts by layoutId and lists them before workflows', () => {
    const source = content([workflow('w')], [layout('brand', { controlValues: { email: { body: 'v2' } } })]);
    const target = content([], [layout('brand', { controlValues: { email: { body: 'v1' } } }), layout('old')]);
    expect(diffEnvironments(source, target).map((diff) => [diff.kind, diff.key, diff.action])).toEqual([
      ['layout', 'brand', 'modified'],
      ['layout', 'old', 'deleted'],
      ['workflow', 'w', 'added'],
    ]);
  });

  it('ignores the order of keys inside stored objects', () => {
    const source = content([workflow('a', { data: { x: 1, y: { b: 2, a: 1 } } })]);
    const target = content([workflow('a', { data: { y: { a: 1, b: 2 }, x: 1 } })]);
    expect(diffEnvironments(source, target)).toEqual([]);
  });
});
