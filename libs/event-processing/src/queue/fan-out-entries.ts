import type { JobPayloads } from './job-catalogue.js';

/** Events per fan-out queue entry: one api batch of single triggers, or one bulk request. */
export const FAN_OUT_EVENTS_PER_ENTRY = 100;

/** Groups stored events into fan-out queue entries, per environment, at most FAN_OUT_EVENTS_PER_ENTRY each. */
export function fanOutEntries(events: { id: string; environmentId: string }[]): { data: JobPayloads['fan-out'] }[] {
  const byEnvironment = new Map<string, string[]>();
  for (const event of events) {
    const ids = byEnvironment.get(event.environmentId) ?? [];
    if (ids.length === 0) byEnvironment.set(event.environmentId, ids);
    ids.push(event.id);
  }
  return [...byEnvironment].flatMap(([environmentId, ids]) => {
    const entries: { data: JobPayloads['fan-out'] }[] = [];
    for (let start = 0; start < ids.length; start += FAN_OUT_EVENTS_PER_ENTRY) {
      entries.push({ data: { environmentId, eventIds: ids.slice(start, start + FAN_OUT_EVENTS_PER_ENTRY) } });
    }
    return entries;
  });
}
