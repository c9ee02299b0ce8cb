import { describe, expect, it } from '@jest/globals';
import {
  resolveChannel,
  resolveGlobalChannels,
  resolveWorkflowPreferences,
  workflowChannels,
  type PreferenceSource,
  type PreferenceWorkflow,
} from './preference-resolver.js';

const step = (type: string, active = true) => ({ active, template: { type } });

type Layer = boolean | undefined;
type Row = [
  critical: boolean,
  template: Layer,
  global: Layer,
  perWorkflow: Layer,
  enabled: boolean,
  source: PreferenceSource,
];

// Every combination of the three layers for one channel (email), for a normal and a critical workflow.
const table: Row[] = [
  [false, undefined, undefined, undefined, true, 'template'],
  [false, true, undefined, undefined, true, 'template'],
  [false, false, undefined, undefined, false, 'template'],
  [false, undefined, false, undefined, false, 'subscriber'],
  [false, undefined, true, undefined, true, 'subscriber'],
  [false, false, true, undefined, true, 'subscriber'],
  [false, true, false, undefined, false, 'subscriber'],
  [false, undefined, undefined, false, false, 'subscriber'],
  [false, false, undefined, true, true, 'subscriber'],
  [false, true, undefined, false, false, 'subscriber'],
  [false, undefined, false, true, true, 'subscriber'],
  [false, undefined, true, false, false, 'subscriber'],
  [false, false, false, true, true, 'subscriber'],
  [false, true, true, false, false, 'subscriber'],
  [false, false, true, false, false, 'subscriber'],
  [false, true, false, true, true, 'subscriber'],
  [true, undefined, undefined, undefined, true, 'template'],
  [true, undefined, false, undefined, true, 'template'],
  [true, undefined, false, false, true, 'template'],
  [true, undefined, undefined, false, true, 'template'],
  [true, false, true, true, false, 'template'],
  [true, true, false, false, true, 'template'],
];

describe('resolveChannel', () => {
  it.each(table)(
    'critical=%s template=%s global=%s workflow=%s → %s from %s',
    (critical, template, global, perWorkflow, enabled, source) => {
      const workflow: PreferenceWorkflow = {
        critical,
        preferenceSettings: template === undefined ? {} : { email: template },
      };
      const layers = {
        global: global === undefined ? null : { email: global },
        workflow: perWorkflow === undefined ? undefined : { email: perWorkflow },
      };
      expect(resolveChannel(workflow, layers, 'email')).toEqual({ enabled, source });
    },
  );

  it('reads each channel on its own', () => {
    const workflow: PreferenceWorkflow = { critical: false, preferenceSettings: { sms: false } };
    const layers = { global: { email: false }, workflow: { push: false } };
    expect(resolveChannel(workflow, layers, 'sms')).toEqual({ enabled: false, source: 'template' });
    expect(resolveChannel(workflow, layers, 'email')).toEqual({ enabled: false, source: 'subscriber' });
    expect(resolveChannel(workflow, layers, 'push')).toEqual({ enabled: false, source: 'subscriber' });
    expect(resolveChannel(workflow, layers, 'chat')).toEqual({ enabled: true, source: 'template' });
  });

  it('ignores non-boolean stored values', () => {
    const workflow = { critical: false, preferenceSettings: { email: 'no' } } as unknown as PreferenceWorkflow;
    const layers = { global: { email: null } } as unknown as { global: Record<string, boolean> };
    expect(resolveChannel(workflow, layers, 'email')).toEqual({ enabled: true, source: 'template' });
  });

  it('handles a workflow without preferenceSettings', () => {
    expect(resolveChannel({ critical: false, preferenceSettings: null }, {}, 'in_app')).toEqual({
      enabled: true,
      source: 'template',
    });
  });
});

describe('workflowChannels', () => {
  it('lists the channels of active steps once, in channel order', () => {
    const steps = [
      step('email'),
      step('digest'),
      step('in_app'),
      step('email'),
      step('sms', false),
      step('delay'),
      step('push'),
    ];
    expect(workflowChannels({ steps })).toEqual(['in_app', 'email', 'push']);
  });

  it('counts a step without an active flag as active and skips malformed steps', () => {
    expect(workflowChannels({ steps: [{ template: { type: 'chat' } }, { template: null }, {}] })).toEqual(['chat']);
    expect(workflowChannels({ steps: [] })).toEqual([]);
    expect(workflowChannels({ steps: null })).toEqual([]);
  });
});

describe('resolveWorkflowPreferences', () => {
  it('resolves only the channels of active steps, with the deciding layer of each', () => {
    const workflow: PreferenceWorkflow = {
      critical: false,
      preferenceSettings: { email: false, sms: false, in_app: true },
      steps: [step('in_app'), step('email'), step('sms'), step('chat', false)],
    };
    const result = resolveWorkflowPreferences(workflow, {
      global: { in_app: false, chat: false },
      workflow: { sms: true },
    });
    expect(result).toEqual({
      enabled: true,
      channels: { in_app: false, email: false, sms: true },
      overrides: [
        { channel: 'in_app', source: 'subscriber' },
        { channel: 'email', source: 'template' },
        { channel: 'sms', source: 'subscriber' },
      ],
    });
  });

  it('keeps a critical workflow on the template values', () => {
    const workflow: PreferenceWorkflow = {
      critical: true,
      preferenceSettings: {},
      steps: [step('email'), step('push')],
    };
    expect(resolveWorkflowPreferences(workflow, { global: { email: false }, workflow: { push: false } })).toEqual({
      enabled: true,
      channels: { email: true, push: true },
      overrides: [
        { channel: 'email', source: 'template' },
        { channel: 'push', source: 'template' },
      ],
    });
  });

  it('gives an empty entry for a workflow without channel steps', () => {
    expect(resolveWorkflowPreferences({ critical: false, steps: [step('delay')] }, {})).toEqual({
      enabled: true,
      channels: {},
      overrides: [],
    });
  });
});

describe('resolveGlobalChannels', () => {
  it('defaults all five channels to true', () => {
    expect(resolveGlobalChannels(null)).toEqual({ in_app: true, email: true, sms: true, chat: true, push: true });
  });

  it('overlays the stored global preference and ignores unknown keys', () => {
    expect(resolveGlobalChannels({ email: false, push: true, fax: false })).toEqual({
      in_app: true,
      email: false,
      sms: true,
      chat: true,
      push: true,
    });
  });
});
