import { and, arrayContained, arrayContains, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { messages } from '../schema/index.js';

/**
 * The messages whose contextKeys hold exactly these keys, in whatever order (neither more nor fewer); `[]` is
 * none. A placeholder stands for a non-empty list.
 */
export function exactContextKeys(keys: string[] | Placeholder): SQL | undefined {
  if (Array.isArray(keys) && keys.length === 0) return sql`cardinality(${messages.contextKeys}) = 0`;
  return and(arrayContains(messages.contextKeys, keys), arrayContained(messages.contextKeys, keys));
}
