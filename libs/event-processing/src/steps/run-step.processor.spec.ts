import { describe, expect, it, jest } from '@jest/globals';
import type { Job } from 'bullmq';
import type { JobPayloads } from '../queue/job-catalogue.js';
import { RunStepProcessor } from './run-step.processor.js';
import type { StepRunner } from './step-runner.service.js';

describe('RunStepProcessor', () => {
  const run = async (data: JobPayloads['run-step'], stalledCounter: number, attemptsMade = 0) => {
    const runMany = jest.fn<StepRunner['runMany']>(() => Promise.resolve());
    const processor = new RunStepProcessor({ runMany } as unknown as StepRunner);
    // The step part of processing, past the environment's lane (EnvironmentFairConsumer).
    await processor['handle']({ data, stalledCounter, attemptsMade, opts: { attempts: 5 } } as Job<
      JobPayloads['run-step']
    >);
    return runMany.mock.calls[0];
  };

  it.each([
    ['a first delivery', {}, 0, false],
    ['an entry the recovery sweeper re-enqueued', { recovered: true as const }, 0, true],
    ['an entry handed out again after its worker stopped', {}, 1, true],
  ])('%s: suspect %s', async (_, marks, stalledCounter, suspect) => {
    expect(await run({ environmentId: 'env', jobIds: ['a', 'b'], ...marks }, stalledCounter)).toEqual([
      'env',
      ['a', 'b'],
      { finalAttempt: false, suspect },
    ]);
  });

  it('the final attempt is passed on', async () => {
    expect((await run({ environmentId: 'env', jobIds: ['a'] }, 0, 4))[2]).toEqual({
      finalAttempt: true,
      suspect: false,
    });
  });
});
