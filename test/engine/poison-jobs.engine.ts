import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { JobType } from 'bullmq';
import { and, eq, inArray } from 'drizzle-orm';
import { AppConfig } from '#common';
import { JobRepository, jobs } from '#dal';
import { QUEUE_NAMES, RecoverySweeper, type JobPayloads } from '#event-processing';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';

const LONG_AGO = () => new Date(Date.now() - 10 * 60_000);

/**
 * Poison step jobs: a job whose run stops its worker (crash, out of memory, lost lock) is handed back
 * by the recovery sweeper a bounded number of times, then failed. A killed worker is simulated by
 * the state it leaves in the database: its claimed job `running` with a heartbeat long stopped, and
 * the queue entry it had taken gone. test/reliability/poison-job.reliability.ts kills real workers.
 */
describe('workflow engine: poison step jobs', () => {
  let e: Engine;
  let maxStalls: number;
  beforeAll(async () => {
    e = await startEngine();
    maxStalls = e.app.get(AppConfig).jobMaxStalls;
  });
  afterAll(async () => {
    await e?.close();
  });

  const steps = () => e.queue.queue(QUEUE_NAMES.steps);
  const sweep = () => e.app.get(RecoverySweeper).sweep();
  /** Triggers with the step queue paused: the jobs are created, their entry waits in the queue. */
  const triggerHeld = async (workflow: string, to: unknown, count: number): Promise<string> => {
    const response = await e.trigger({ name: workflow, to });
    expect(response.status).toBe('processed');
    const transactionId = response.transactionId!;
    await e.heldEntries(transactionId);
    expect(await jobsOf(e, transactionId)).toHaveLength(count);
    return transactionId;
  };
  // 'paused' (the waiting list of a paused queue) is read by both backends; BullMQ's JobType does not name it.
  const waitingEntries = async () =>
    (await steps().getJobs(['waiting', 'paused', 'prioritized', 'delayed'] as JobType[])).map(
      (job) => job.data as JobPayloads['run-step'],
    );

  it('counts a stall each time the sweeper hands back a job its worker died running; at JOB_MAX_STALLS the job fails with a detail and the next step runs', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('poison'), inApp('after')] });
    await steps().pause();
    let poisonTxn: string;
    let lostTxn: string;
    try {
      poisonTxn = await triggerHeld(workflow.identifier, 'poison-sub', 2);
      lostTxn = await triggerHeld(workflow.identifier, 'lost-entry-sub', 2);
      const [poison] = await jobsOf(e, poisonTxn);
      const [lost] = await jobsOf(e, lostTxn);
      for (let stall = 1; stall <= maxStalls; stall++) {
        // A worker took the entry, claimed the job and died mid-run: the entry is gone with it, the
        // row stays `running` and its heartbeat stops. The other job's entry was simply lost.
        await steps().drain(true);
        await e.db
          .update(jobs)
          .set({ status: 'running', attempts: poison.attempts + stall, updatedAt: LONG_AGO() })
          .where(eq(jobs.id, poison.id));
        await e.db.update(jobs).set({ updatedAt: LONG_AGO() }).where(eq(jobs.id, lost.id));
        await sweep();
        const [poisonRow] = await jobsOf(e, poisonTxn);
        const [lostRow] = await jobsOf(e, lostTxn);
        expect([poisonRow.status, poisonRow.stalls]).toEqual(['queued', stall]);
        expect([lostRow.status, lostRow.stalls]).toEqual(['queued', 0]);
        const entries = await waitingEntries();
        expect(entries.flatMap((entry) => entry.jobIds).sort()).toEqual([poison.id, lost.id].sort());
        expect(entries.every((entry) => entry.recovered === true)).toBe(true);
      }
    } finally {
      await steps().resume();
    }
    // The poison job ends and the next step runs.
    const [failed, after] = await e.settled(poisonTxn);
    const detail = `The worker running this step stopped ${maxStalls} times (crash, out of memory or a lost lock); the step is not retried`;
    expect([failed.status, failed.error, failed.stalls, failed.attempts]).toEqual([
      'failed',
      detail,
      maxStalls,
      maxStalls + 1,
    ]);
    expect((await detailsOf(e, failed.id)).map((row) => [row.status, row.detail])).toEqual([['Failed', detail]]);
    // Not run again: no message of the poison step; the next step ran as after any failed step.
    expect(after.status).toBe('completed');
    expect((await messagesOf(e, poisonTxn)).map((message) => message.jobId)).toEqual([after.id]);
    // The job whose entry was lost ran normally, with its stalls untouched.
    const recovered = await e.settled(lostTxn);
    expect(recovered.map((job) => [job.status, job.stalls])).toEqual([
      ['completed', 0],
      ['completed', 0],
    ]);
    expect(await messagesOf(e, lostTxn)).toHaveLength(2);
  });

  it('a job below the bound is run again (claimed) after its worker died: one message, the stall counted', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('survivor')] });
    await steps().pause();
    let transactionId: string;
    try {
      transactionId = await triggerHeld(workflow.identifier, 'survivor-sub', 1);
      await steps().drain(true);
      await e.db
        .update(jobs)
        .set({ status: 'running', attempts: 1, stalls: maxStalls - 2, updatedAt: LONG_AGO() })
        .where(eq(jobs.transactionId, transactionId));
      await sweep();
    } finally {
      await steps().resume();
    }
    const [job] = await e.settled(transactionId);
    expect([job.status, job.stalls, job.attempts]).toEqual(['completed', maxStalls - 1, 2]);
    expect(await messagesOf(e, transactionId)).toHaveLength(1);
  });

  it('a recovered entry claims its jobs (in_app too) one at a time: at each claim no other job of it is running', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('one by one')] });
    await steps().pause();
    let transactionId: string;
    let ids: string[] = [];
    // Every module has its own repository instance: the step runner's is watched through the class.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the instance as `this`
    const claimMany = JobRepository.prototype.claimMany;
    const claims: { ids: string[]; runningOthers: number }[] = [];
    const spy = jest.spyOn(JobRepository.prototype, 'claimMany').mockImplementation(async function (
      this: JobRepository,
      environmentId,
      claimed,
      now,
    ) {
      const running = await e.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')));
      claims.push({ ids: claimed, runningOthers: running.length });
      return claimMany.call(this, environmentId, claimed, now);
    });
    try {
      try {
        transactionId = await triggerHeld(workflow.identifier, ['obo-1', 'obo-2', 'obo-3', 'obo-4'], 4);
        ids = (await jobsOf(e, transactionId)).map((job) => job.id);
        // The entry was lost (a Redis restart, say): the sweeper re-enqueues the queued jobs, marked.
        await steps().drain(true);
        await e.db.update(jobs).set({ updatedAt: LONG_AGO() }).where(eq(jobs.transactionId, transactionId));
        await sweep();
      } finally {
        await steps().resume();
      }
      const four = await e.settled(transactionId);
      expect(four.map((job) => job.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    } finally {
      spy.mockRestore();
    }
    const ofEntry = claims.filter((claim) => claim.ids.some((id) => ids.includes(id)));
    expect(ofEntry.map((claim) => claim.ids.length)).toEqual([1, 1, 1, 1]);
    expect(ofEntry.map((claim) => claim.ids[0]).sort()).toEqual([...ids].sort());
    expect(ofEntry.every((claim) => claim.runningOthers === 0)).toBe(true);
    // Claimed: the attempt was on the row before the run; nothing counted as a stall.
    expect((await jobsOf(e, transactionId)).map((job) => [job.attempts, job.stalls])).toEqual(ids.map(() => [1, 0]));
    expect(await messagesOf(e, transactionId)).toHaveLength(4);
  });
});
