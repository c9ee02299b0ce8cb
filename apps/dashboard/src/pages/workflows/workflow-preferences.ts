import type { PreferenceChannel, PreferenceLevel, PreferencesInput, Workflow } from './workflow-types';

export const PREFERENCE_CHANNELS: readonly [PreferenceChannel, string][] = [
  ['in_app', 'In-app'],
  ['email', 'Email'],
  ['sms', 'SMS'],
  ['chat', 'Chat'],
  ['push', 'Push'],
];

/**
 * The level subscribers start from: `user` when the workflow has one (it overrides the author's default, and
 * the engine reads it), else `default`. The form edits that one, so what it shows is what delivery does.
 */
const startingLevel = (workflow: Workflow): PreferenceLevel =>
  workflow.preferences.user ?? workflow.preferences.default;

export function preferencesInput(workflow: Workflow): PreferencesInput {
  const level = startingLevel(workflow);
  const channels = Object.fromEntries(
    PREFERENCE_CHANNELS.map(([channel]) => [channel, level.channels[channel]?.enabled ?? level.all.enabled]),
  ) as Record<PreferenceChannel, boolean>;
  return { channels, critical: level.all.readOnly };
}

/** The `preferences` of the PUT: the edited level in place of the stored one, the other level as stored. */
export function preferencesRequest(stored: Workflow, input: PreferencesInput) {
  const level = startingLevel(stored);
  const edited: PreferenceLevel = {
    all: { ...level.all, readOnly: input.critical },
    channels: Object.fromEntries(
      PREFERENCE_CHANNELS.map(([channel]) => [channel, { enabled: input.channels[channel] }]),
    ),
  };
  return stored.preferences.user
    ? { user: edited, workflow: stored.preferences.default }
    : { user: null, workflow: edited };
}
