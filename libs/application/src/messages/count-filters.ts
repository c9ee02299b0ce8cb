import { DomainError } from '#common';
import type { InboxFilter } from '#dal';

/** A message's severity as the inbox shows it. */
export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

const MAX_FILTERS = 30;
const MAX_CONTEXT_KEYS = 5;
const BOOLEAN_KEYS = ['read', 'seen', 'archived', 'snoozed'] as const;

function invalid(message: string, value?: unknown): DomainError {
  return DomainError.validation('filters', message, value);
}

function stringList(value: unknown, key: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((item) => typeof item === 'string')) throw invalid(`filters.${key} must be a string or strings`);
  return list;
}

/** Tags as a list, or @novu/js's `{ or: [...] }` form of one group (its AND-of-groups form is not supported). */
function tagList(value: unknown): string[] {
  const or =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { or?: unknown }).or : undefined;
  return stringList(or ?? value, 'tags');
}

/** The latest instant a JavaScript Date holds. */
const MAX_DATE_MS = 8_640_000_000_000_000;

function instant(value: unknown, key: string): Date {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DATE_MS)
    throw invalid(`filters.${key} must be a time in Unix milliseconds`, value);
  return new Date(value);
}

function dataObject(value: unknown): Record<string, unknown> {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('filters.data must be a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * `?filters=` of the count route: a JSON array of filter objects, each answered with its own count
 * and echoed back as given. Unknown keys and wrong types are a 422, not silently dropped.
 */
export function parseCountFilters(raw: string): { given: Record<string, unknown>; filter: InboxFilter }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('filters must be a JSON array of filter objects', raw);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_FILTERS)
    throw invalid(`filters must be a JSON array of 1 to ${MAX_FILTERS} filter objects`, raw);
  return parsed.map((given: unknown) => {
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      throw invalid('each filter must be an object', given);
    const filter: InboxFilter = {};
    for (const [key, value] of Object.entries(given)) {
      if ((BOOLEAN_KEYS as readonly string[]).includes(key)) {
        if (typeof value !== 'boolean') throw invalid(`filters.${key} must be a boolean`, value);
        filter[key as (typeof BOOLEAN_KEYS)[number]] = value;
      } else if (key === 'tags') filter.tags = tagList(value);
      else if (key === 'createdGte' || key === 'createdLte') filter[key] = instant(value, key);
      else if (key === 'severity') {
        filter.severity = stringList(value, key);
        if (!filter.severity.every((item) => (SEVERITIES as readonly string[]).includes(item)))
          throw invalid(`filters.severity must be one of ${SEVERITIES.join(', ')}`, value);
      } else if (key === 'data') {
        try {
          filter.data = dataObject(value);
        } catch {
          throw invalid('filters.data must be a JSON object', value);
        }
      } else if (key === 'contextKeys') {
        filter.contextKeys = stringList(value, key);
        if (filter.contextKeys.length > MAX_CONTEXT_KEYS)
          throw invalid(`filters.contextKeys may list at most ${MAX_CONTEXT_KEYS} contexts`, value);
      } else throw invalid(`filters.${key} is not a filter`, value);
    }
    return { given: given as Record<string, unknown>, filter };
  });
}
