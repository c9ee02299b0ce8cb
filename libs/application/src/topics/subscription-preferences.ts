import { DomainError } from '#common';
import {
  assertValidCondition,
  conditionHolds,
  type ConditionData,
  type SubscriptionCondition,
} from './subscription-condition.js';

/**
 * One entry of a topic subscription's preferences, as stored in `topic_subscribers.preferences`.
 * Every form Novu's clients send becomes this one: a workflow id string, `{ workflowId, enabled?,
 * condition? }` and `{ filter: { workflowIds?, tags? }, enabled?, condition? }`.
 */
export interface StoredSubscriptionPreference {
  /** Trigger identifiers or internal ids. */
  workflowIds?: string[];
  /** Workflows carrying any of these tags, looked up when a trigger fans out (so later-tagged ones count). */
  tags?: string[];
  enabled: boolean;
  condition?: SubscriptionCondition;
}

/** The workflow of a trigger, as the entries match it. */
export interface SubscriptionWorkflow {
  id: string;
  identifier: string;
  tags: string[];
}

export const MAX_PREFERENCES = 20;
const MAX_FILTER_ITEMS = 50;
const MAX_NAME_LENGTH = 255;
/** A page of fan-out members holds every member's preferences in memory. */
const MAX_PREFERENCES_BYTES = 16 * 1024;

const ENTRY_KEYS = new Set(['workflowId', 'filter', 'enabled', 'condition']);
const FILTER_KEYS = new Set(['workflowIds', 'tags']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.trim().length > 0 && value.length <= MAX_NAME_LENGTH;

/**
 * The stored form of the preferences a client sent, or null for none (every trigger reaches the
 * member). Throws a 422 naming the entry's field path (`preferences.2.condition`).
 */
export function toStoredPreferences(input: unknown, path = 'preferences'): StoredSubscriptionPreference[] | null {
  if (input === undefined || input === null) return null;
  if (!Array.isArray(input)) throw DomainError.validation(path, `${path} must be an array`, input);
  if (input.length > MAX_PREFERENCES)
    throw DomainError.validation(path, `${path} may hold at most ${MAX_PREFERENCES} entries`);
  if (input.length === 0) return null;
  const stored = input.map((entry, index) => toStoredEntry(entry, `${path}.${index}`));
  if (Buffer.byteLength(JSON.stringify(stored)) > MAX_PREFERENCES_BYTES)
    throw DomainError.validation(path, `${path} must be at most ${MAX_PREFERENCES_BYTES} bytes of JSON`);
  return stored;
}

function toStoredEntry(entry: unknown, path: string): StoredSubscriptionPreference {
  if (isName(entry)) return { workflowIds: [entry], enabled: true };
  if (!isPlainObject(entry))
    throw DomainError.validation(path, `${path} must be a workflow id, { workflowId } or { filter }`, entry);
  const unknownKey = Object.keys(entry).find((key) => !ENTRY_KEYS.has(key));
  if (unknownKey) throw DomainError.validation(`${path}.${unknownKey}`, `${path}.${unknownKey} is not allowed`);
  if ((entry.workflowId === undefined) === (entry.filter === undefined))
    throw DomainError.validation(path, `${path} must have either a workflowId or a filter`, entry);
  if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean')
    throw DomainError.validation(`${path}.enabled`, `${path}.enabled must be a boolean`, entry.enabled);
  const stored: StoredSubscriptionPreference = { enabled: entry.enabled ?? true };
  if (entry.workflowId !== undefined) {
    if (!isName(entry.workflowId))
      throw DomainError.validation(
        `${path}.workflowId`,
        `${path}.workflowId must be a non-empty string of at most ${MAX_NAME_LENGTH} characters`,
        entry.workflowId,
      );
    stored.workflowIds = [entry.workflowId];
  } else Object.assign(stored, toStoredFilter(entry.filter, `${path}.filter`));
  if (entry.condition !== undefined) {
    assertValidCondition(entry.condition, `${path}.condition`);
    stored.condition = entry.condition;
  }
  return stored;
}

function toStoredFilter(filter: unknown, path: string): Pick<StoredSubscriptionPreference, 'workflowIds' | 'tags'> {
  if (!isPlainObject(filter))
    throw DomainError.validation(path, `${path} must be an object with workflowIds and/or tags`, filter);
  const unknownKey = Object.keys(filter).find((key) => !FILTER_KEYS.has(key));
  if (unknownKey) throw DomainError.validation(`${path}.${unknownKey}`, `${path}.${unknownKey} is not allowed`);
  const result: Pick<StoredSubscriptionPreference, 'workflowIds' | 'tags'> = {};
  for (const key of ['workflowIds', 'tags'] as const) {
    const list = filter[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length > MAX_FILTER_ITEMS || !list.every(isName))
      throw DomainError.validation(
        `${path}.${key}`,
        `${path}.${key} must be an array of at most ${MAX_FILTER_ITEMS} non-empty strings`,
        list,
      );
    if (list.length > 0) result[key] = [...new Set(list)];
  }
  if (!result.workflowIds && !result.tags)
    throw DomainError.validation(path, `${path} must name at least one workflow id or tag`, filter);
  return result;
}

export function entryMatches(entry: StoredSubscriptionPreference, workflow: SubscriptionWorkflow): boolean {
  return (
    (entry.workflowIds?.some((key) => key === workflow.identifier || key === workflow.id) ?? false) ||
    (entry.tags?.some((tag) => workflow.tags.includes(tag)) ?? false)
  );
}

/**
 * Whether a trigger of `workflow` reaches a member whose subscription has these preferences. None:
 * every trigger. Otherwise the last entry naming the workflow decides (as Novu keeps one preference
 * per workflow, later entries overwriting earlier ones); no entry: the trigger does not reach it.
 * `data` is built only when a condition needs it.
 */
export function subscriptionAllows(
  preferences: readonly StoredSubscriptionPreference[] | null,
  workflow: SubscriptionWorkflow,
  data: () => ConditionData,
): boolean {
  if (!preferences || preferences.length === 0) return true;
  const entry = preferences.findLast((candidate) => entryMatches(candidate, workflow));
  if (!entry?.enabled) return false;
  return entry.condition === undefined || conditionHolds(entry.condition, data());
}
