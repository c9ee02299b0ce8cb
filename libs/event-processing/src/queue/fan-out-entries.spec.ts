import { describe, expect, it } from '@jest/globals';
import { FAN_OUT_EVENTS_PER_ENTRY, fanOutEntries } from './fan-out-entries.js';

describe('fanOutEntries', () => {
  it('groups events per environment, in order, at most FAN_OUT_EVENTS_PER_ENTRY per entry', () => {
    const events = [
      ...Array.from({ length: FAN_OUT_EVENTS_PER_ENTRY + 1 }, (_, i) => ({ id: `a${i}`, environmentId: 'A' })),
      { id: 'b0', environmentId: 'B' },
    ];
    const entries = fanOutEntries(events);
    expect(entries.map((entry) => [entry.data.environmentId, entry.data.eventIds.length])).toEqual([
      ['A', FAN_OUT_EVENTS_PER_ENTRY],
      ['A', 1],
      ['B', 1],
    ]);
    expect(entries.flatMap((entry) => entry.data.eventIds)).toEqual(events.map((event) => event.id));
  });

  it('no events, no entries', () => {
    expect(fanOutEntries([])).toEqual([]);
  });
});
