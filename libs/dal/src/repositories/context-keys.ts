import { and, arrayContained, arrayContains, sql, type SQL } from 'drizzle-orm';
import { messages } from '../schema/index.js';

/** The messages whose contextKeys hold exactly these keys, in whatever order (neither more nor fewer); `[]` is none. */
export function exactContextKeys(keys: string[]): SQL | undefined {
  if (keys.length === 0) return sql`cardinality(${messages.contextKeys}) = 0`;
  return and(arrayContains(messages.contextKeys, keys), arrayContained(messages.contextKeys, keys));
}
