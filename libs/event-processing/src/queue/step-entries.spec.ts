import { describe, expect, it } from '@jest/globals';
import { STEP_BATCH, stepEntries } from './step-entries.js';

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
