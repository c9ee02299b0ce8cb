import { CHANNELS, isChannel, type Channel } from '#common';

export type ChannelPreferences = Partial<Record<Channel, boolean>>;

/** Which layer decided a channel's value (spec PreferenceOverride.source). */
export type PreferenceSource = 'template' | 'subscriber' | 'workflowOverride';

export interface PreferenceOverride {
  channel: Channel;
  source: PreferenceSource;
}

/** The parts of a workflow the resolution reads (a WorkflowRow fits). */
export interface PreferenceWorkflow {
  critical: boolean;
  preferenceSettings?: Record<string, boolean> | null;
  steps?: readonly { active?: boolean; template?: { type?: string } | null }[] | null;
}

/** The subscriber's stored layers; absent or null when never saved. */
export interface SubscriberLayers {
  global?: Record<string, boolean> | null;
  workflow?: Record<string, boolean> | null;
}

export interface ResolvedChannel {
  enabled: boolean;
  source: PreferenceSource;
}

export interface ResolvedWorkflowPreferences {
  enabled: boolean;
  channels: ChannelPreferences;
  overrides: PreferenceOverride[];
}

/** The channels of the workflow's active steps, in the canonical channel order. */
export function workflowChannels(workflow: Pick<PreferenceWorkflow, 'steps'>): Channel[] {
  const used = new Set<Channel>();
  for (const step of workflow.steps ?? []) {
    const type = step?.template?.type;
    if (step?.active !== false && isChannel(type)) used.add(type);
  }
  return CHANNELS.filter((channel) => used.has(channel));
}

/**
 * One channel through the layers (BEHAVIOR §6), later winning: workflow default (`preferenceSettings`,
 * true when unset) → subscriber global → subscriber per-workflow. A critical workflow ignores the
 * subscriber layers.
 */
export function resolveChannel(
  workflow: PreferenceWorkflow,
  layers: SubscriberLayers,
  channel: Channel,
): ResolvedChannel {
  const template = workflow.preferenceSettings?.[channel];
  let resolved: ResolvedChannel = { enabled: typeof template === 'boolean' ? template : true, source: 'template' };
  if (workflow.critical) return resolved;
  for (const layer of [layers.global, layers.workflow]) {
    const value = layer?.[channel];
    if (typeof value === 'boolean') resolved = { enabled: value, source: 'subscriber' };
  }
  return resolved;
}

/** A workflow's entry of the preferences response: only the channels its active steps use. */
export function resolveWorkflowPreferences(
  workflow: PreferenceWorkflow,
  layers: SubscriberLayers,
): ResolvedWorkflowPreferences {
  const channels: ChannelPreferences = {};
  const overrides: PreferenceOverride[] = [];
  for (const channel of workflowChannels(workflow)) {
    const { enabled, source } = resolveChannel(workflow, layers, channel);
    channels[channel] = enabled;
    overrides.push({ channel, source });
  }
  return { enabled: true, channels, overrides };
}

/** The global entry: all five channels, on unless the subscriber's global preference turns them off. */
export function resolveGlobalChannels(global: Record<string, boolean> | null | undefined): Record<Channel, boolean> {
  const channels = {} as Record<Channel, boolean>;
  for (const channel of CHANNELS) {
    const value = global?.[channel];
    channels[channel] = typeof value === 'boolean' ? value : true;
  }
  return channels;
}
