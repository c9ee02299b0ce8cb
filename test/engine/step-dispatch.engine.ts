import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JobType } from 'bullmq';
import { QUEUE_NAMES, type JobPayloads } from '#event-processing';
import { createWorkflow, inApp, step } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';

/**
 * A fan-out hands the first steps that finish within the database (in_app) to its own worker's step
 * runner; the steps that call out or wait go through the step queue, whose slots are shared between
 * environments.
 */
describe('workflow engine: first steps handed over in memory', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    await e?.close();
  });

  /** The job ids every entry the step queue holds or kept names. */
  const queuedJobIds = async () => {
    const states = ['waiting', 'paused', 'active', 'delayed', 'prioritized', 'completed', 'failed'] as JobType[];
    const entries = await e.queue.queue(QUEUE_NAMES.steps).getJobs(states);
    return new Set(entries.flatMap((entry) => (entry.data as JobPayloads['run-step']).jobIds));
  };

  it('an in_app first step is delivered without a step queue entry', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('Handed over')] });
    const { jobs } = await e.triggerAndSettle({ name: workflow.identifier, to: 'handed-over' });
    expect(jobs.map((job) => job.status)).toEqual(['completed']);
    expect((await queuedJobIds()).has(jobs[0].id)).toBe(false);
  });

  it('a delay first step goes through the step queue, and the in_app step after it too', async () => {
    const workflow = await createWorkflow(e, {
      steps: [
        step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } }),
        inApp('After the delay'),
      ],
    });
    const { jobs } = await e.triggerAndSettle({ name: workflow.identifier, to: 'queued-first' });
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
    const named = await queuedJobIds();
    expect(jobs.map((job) => named.has(job.id))).toEqual([true, true]);
  });
});
