import { parse } from 'node:querystring';
import { Transform } from 'class-transformer';

/**
 * Query strings accept repeated keys (`a=1&a=2`), the bracket form (`a[]=1`) and a single value
 * (BEHAVIOR "Array query parameters"): bracket keys are folded into their base name here.
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const parsed = parse(query) as Record<string, string | string[]>;
  const result = Object.create(null) as Record<string, string | string[]>;
  for (const [rawKey, value] of Object.entries(parsed)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = rawKey.endsWith('[]') && !Array.isArray(value) ? [value] : value;
    else
      result[key] = [...(Array.isArray(existing) ? existing : [existing]), ...(Array.isArray(value) ? value : [value])];
  }
  return result;
}

/** DTO decorator: a single query value becomes a one-element array. */
export const ToArray = () =>
  Transform(({ value }) =>
    value === undefined || value === null || value === '' ? undefined : Array.isArray(value) ? value : [value],
  );
