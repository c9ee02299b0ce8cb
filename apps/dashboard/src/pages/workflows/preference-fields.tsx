import type { UseFormRegister } from 'react-hook-form';
import { PREFERENCE_CHANNELS } from './workflow-preferences';
import type { WorkflowInput } from './workflow-types';

/**
 * The preferences subscribers start from: each channel on or off by default, and whether they may change it
 * (a critical workflow ignores their choices and is left out of their preference lists).
 */
export function PreferenceFields({ register }: { register: UseFormRegister<WorkflowInput> }) {
  return (
    <>
      <p className="muted">What a subscriber gets before they choose:</p>
      {PREFERENCE_CHANNELS.map(([channel, label]) => (
        <label key={channel} className="checkbox">
          <input type="checkbox" {...register(`preferences.channels.${channel}`)} /> {label} on by default
        </label>
      ))}
      <label className="checkbox">
        <input type="checkbox" {...register('preferences.critical')} /> Critical (subscribers cannot turn it off)
      </label>
    </>
  );
}
