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
  });
});
