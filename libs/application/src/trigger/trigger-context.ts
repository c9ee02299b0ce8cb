/** One entry of a trigger's `context`, as templates see it under `context.<type>`. */
export interface ContextEntry {
  id: string;
  data: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A trigger's `context` (`{ tenant: 'acme', project: { id: 'p1', data: {...} } }`, validated by the
 * trigger DTO) as `{ tenant: { id: 'acme', data: {} }, project: { id: 'p1', data: {...} } }`.
 * Entries of another shape (none pass the DTO) are left out.
 */
export function contextEntriesOf(context: unknown): Record<string, ContextEntry> {
  const entries: Record<string, ContextEntry> = {};
  if (!isPlainObject(context)) return entries;
  for (const [type, value] of Object.entries(context)) {
    if (typeof value === 'string') entries[type] = { id: value, data: {} };
    else if (isPlainObject(value) && typeof value.id === 'string')
      entries[type] = { id: value.id, data: isPlainObject(value.data) ? value.data : {} };
  }
  return entries;
}

/**
 * The `contextKeys` of a trigger's notifications and messages: `type:id` per context entry, sorted
 * (as Novu sorts them; the stored request is jsonb, which keeps no key order to follow).
 */
export function contextKeysOf(entries: Record<string, ContextEntry>): string[] {
  return Object.entries(entries)
    .map(([type, entry]) => `${type}:${entry.id}`)
    .sort();
}

/** The contexts a trigger names, as the context store is asked for them: data only where the trigger gave some. */
export function contextReferencesOf(
  context: unknown,
): { type: string; identifier: string; data?: Record<string, unknown> }[] {
  if (!isPlainObject(context)) return [];
  return Object.entries(context).flatMap(([type, value]) => {
    if (typeof value === 'string') return [{ type, identifier: value }];
    if (isPlainObject(value) && typeof value.id === 'string')
      return [{ type, identifier: value.id, ...(isPlainObject(value.data) ? { data: value.data } : {}) }];
    return [];
  });
}

/**
 * The trigger's `context` as the steps read it (`{ tenant: { id, data } }`): the data it gave, else
 * the data the context store holds, so a context named by id alone renders its stored data.
 */
export function withStoredData(
  context: unknown,
  stored: ReadonlyMap<string, { data: Record<string, unknown> }>,
): Record<string, ContextEntry> {
  const entries: Record<string, ContextEntry> = {};
  for (const reference of contextReferencesOf(context)) {
    const data = reference.data ?? stored.get(`${reference.type}:${reference.identifier}`)?.data ?? {};
    entries[reference.type] = { id: reference.identifier, data };
  }
  return entries;
}
