import { parseActor } from '../trigger/recipients.js';
import { contextEntriesOf } from '../trigger/trigger-context.js';
import type { ConditionData } from './subscription-condition.js';
import {
  subscriptionAllows,
  type SubscriptionWorkflow,
  type StoredSubscriptionPreference,
} from './subscription-preferences.js';

/** A topic member as the fan-out reads it: its subscription's preferences and, when it has some, its fields. */
export interface PreferenceMember {
  preferences: unknown[] | null;
  subscriber: Record<string, unknown> | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Which topic members one trigger reaches, decided in memory from the page the fan-out already read.
 * The trigger's part of a condition's data (payload, actor, context) is built once per trigger, and
 * only when a condition first needs it.
 */
export function topicMemberFilter(
  workflow: SubscriptionWorkflow,
  request: Record<string, unknown>,
): (member: PreferenceMember) => boolean {
  let trigger: Omit<ConditionData, 'subscriber'> | undefined;
  const triggerData = () => {
    if (!trigger) {
      const actor = parseActor(request.actor);
      trigger = {
        payload: isPlainObject(request.payload) ? request.payload : {},
        actor: actor ? { ...actor.fields, subscriberId: actor.subscriberId } : null,
        context: contextEntriesOf(request.context),
      };
    }
    return trigger;
  };
  return (member) =>
    // Stored preferences were checked when saved (toStoredPreferences).
    subscriptionAllows(member.preferences as StoredSubscriptionPreference[] | null, workflow, () => ({
      ...triggerData(),
      subscriber: member.subscriber ?? {},
    }));
}
