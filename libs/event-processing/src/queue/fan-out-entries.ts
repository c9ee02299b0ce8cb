import { groupBy } from '#common';
import type { JobPayloads } from './job-catalogue.js';

/** Events per fan-out queue entry: one api batch of single triggers, or one bulk request. */
export const FAN_OUT_EVENTS_PER_ENTRY = 100;

/** Groups stored events into fan-out queue entries, per environment, at most FAN_OUT_EVENTS_PER_ENTRY each. */
export function fanOutEntries(events: { id: string; environmentId: string }[]): { data: JobPayloads['fan-out'] }[] {
  return [...groupBy(events, (event) => event.environmentId)].flatMap(([environmentId, group]) => {
    const ids = group.map((event) => event.id);
    const entries: { data: JobPayloads['fan-out'] }[] = [];
    for (let start = 0; start < ids.length; start += FAN_OUT_EVENTS_PER_ENTRY) {
      entries.push({ data: { environmentId, eventIds: ids.slice(start, start + FAN_OUT_EVENTS_PER_ENTRY) } });
    }
    return entries;
  });
}
