import { describe, expect, it } from '@jest/globals';
import { FAN_OUT_EVENTS_PER_ENTRY, fanOutEntries, STEP_BATCH, stepEntries } from './queue-entries.js';

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

describe('stepEntries', () => {
  it('one entry per environment and due time, cut at STEP_BATCH ids', () => {
    const jobs = [
      ...Array.from({ length: STEP_BATCH + 1 }, (_, index) => ({ id: `a${index}`, environmentId: 'env-a' })),
      { id: 'b0', environmentId: 'env-b' },
      { id: 'b1', environmentId: 'env-b', delayMs: 5_000 },
      { id: 'b2', environmentId: 'env-b', delayMs: 5_000 },
    ];
    const entries = stepEntries(jobs);
    expect(entries.map((entry) => [entry.data.environmentId, entry.data.jobIds.length, entry.options?.delay])).toEqual([
      ['env-a', STEP_BATCH, undefined],
      ['env-a', 1, undefined],
      ['env-b', 1, undefined],
      ['env-b', 2, 5_000],
    ]);
    expect(entries.every((entry) => !('recovered' in entry.data))).toBe(true);
  });

  it('marks every entry it is given marks for (the recovery sweeper: recovered)', () => {
    const jobs = [
      { id: 'a0', environmentId: 'env-a' },
      { id: 'b0', environmentId: 'env-b', delayMs: 1_000 },
    ];
    expect(stepEntries(jobs, { recovered: true }).map((entry) => entry.data)).toEqual([
      { environmentId: 'env-a', jobIds: ['a0'], recovered: true },
      { environmentId: 'env-b', jobIds: ['b0'], recovered: true },
    ]);
  });
});
