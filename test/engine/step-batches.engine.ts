import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import type { Job } from 'bullmq';
import { JobRepository, jobs, notifications, SubscriberRepository, TopicRepository, triggerEvents } from '#dal';
import { QUEUE_NAMES, STEP_BATCH } from '#event-processing';
import { SubscribersService } from '#api/subscribers/subscribers.service.js';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { createSubscriber, deleteSubscriber } from './support/engine-seeds.js';

/**
 * Step jobs travel in batches: one queue entry per fan-out chunk. Each job row is still claimed and
 * finished on its own, so one job's failure or a re-delivered entry does not touch the others.
 */
describe('workflow engine: batched step entries', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    await e?.close();
  });

  const steps = () => e.queue.queue(QUEUE_NAMES.steps);
  const trigger = async (body: Record<string, unknown>) => {
    const response = await e.trigger(body);
    expect(response.status).toBe('processed');
    return response.transactionId!;
  };

  /** Triggers with the step queue paused, so the fan-out's entries wait; returns them and the queued jobs. */
  async function fanOutPaused(body: Record<string, unknown>, expectedJobs: number) {
    await steps().pause();
    const transactionId = await trigger(body);
    const entries = await e.heldEntries(transactionId, 30_000);
    expect((await jobsOf(e, transactionId)).filter((job) => job.status === 'queued')).toHaveLength(expectedJobs);
    return { transactionId, entries };
  }

  it('a fan-out chunk of a topic is one queue entry carrying its step jobs', async () => {
    const scope = { environmentId: e.environment.id, organizationId: e.environment.organizationId };
    const members = await e.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: STEP_BATCH + 20 }, (_, index) => ({ subscriberId: `batch-${index}` })),
    );
    const topics = e.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'batched', 'Batched');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(e, { steps: [inApp('batched')] });
    try {
      const { transactionId, entries } = await fanOutPaused(
        { name: workflow.identifier, to: { type: 'Topic', topicKey: 'batched' } },
        members.length,
      );
      const jobIds = (await jobsOf(e, transactionId)).map((job) => job.id).sort();
      expect(entries.map((entry) => entry.data.jobIds.length).sort((a, b) => a - b)).toEqual([20, STEP_BATCH]);
      expect(entries.flatMap((entry) => entry.data.jobIds).sort()).toEqual(jobIds);
    } finally {
      await steps().resume();
    }
  }, 60_000);

  it('one job of an entry fails unexpectedly: the others complete, the retry runs only it, its last attempt fails it', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('Hi {{subscriber.subscriberId}}')] });
    let transactionId: string;
    try {
      ({ transactionId } = await fanOutPaused({ name: workflow.identifier, to: ['mixed-1', 'mixed-2', 'mixed-3'] }, 3));
      await steps().drain();
    } finally {
      await steps().resume();
    }
    const queued = await jobsOf(e, transactionId);
    // A step without its template makes the in_app step throw: an unexpected error, not a render error.
    const broken = queued[1];
    await e.db
      .update(jobs)
      .set({ step: { ...broken.step, template: undefined as never } })
      .where(eq(jobs.id, broken.id));
    await e.queue.add(
      'run-step',
      { environmentId: e.environment.id, jobIds: queued.map((job) => job.id) },
      { attempts: 2, backoff: { type: 'fixed', delay: 500 } },
    );

    const finished = await e.settled(transactionId, {
      until: (rows) => rows.every((job) => ['completed', 'failed'].includes(job.status)),
      timeoutMs: 20_000,
    });
    expect(finished.map((job) => [job.id, job.status])).toEqual(
      queued.map((job) => [job.id, job.id === broken.id ? 'failed' : 'completed']),
    );
    // One recorded run each: the broken job's first attempt left nothing behind.
    expect(finished.map((job) => job.attempts)).toEqual([1, 1, 1]);
    expect((await messagesOf(e, transactionId)).map((message) => message.jobId).sort()).toEqual(
      queued
        .filter((job) => job.id !== broken.id)
        .map((job) => job.id)
        .sort(),
    );
    expect((await detailsOf(e, broken.id)).map((detail) => detail.detail)).toEqual([
      expect.stringMatching(/^Unexpected error: /),
    ]);
  }, 60_000);

  it('an entry delivered again (a crash before the queue heard back) adds nothing; a job whose outcome was lost re-runs once', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('once')] });
    let transactionId: string;
    try {
      ({ transactionId } = await fanOutPaused({ name: workflow.identifier, to: ['again-1', 'again-2', 'again-3'] }, 3));
    } finally {
      await steps().resume();
    }
    const done = await e.settled(transactionId, {
      until: (rows) => rows.every((job) => job.status === 'completed'),
    });
    expect(await messagesOf(e, transactionId)).toHaveLength(3);
    const detailCount = async () => (await Promise.all(done.map((job) => detailsOf(e, job.id)))).flat().length;
    const detailsBefore = await detailCount();
    // The worker died after writing the message of the first job, before its status: the sweeper hands it back as queued.
    await e.db.update(jobs).set({ status: 'queued' }).where(eq(jobs.id, done[0].id));
    await e.processed(
      await e.queue.add('run-step', { environmentId: e.environment.id, jobIds: done.map((job) => job.id) }),
    );

    expect(await messagesOf(e, transactionId)).toHaveLength(3);
    expect((await jobsOf(e, transactionId)).map((job) => [job.status, job.attempts])).toEqual([
      ['completed', 2],
      ['completed', 1],
      ['completed', 1],
    ]);
    expect((await detailsOf(e, done[0].id)).map((detail) => detail.detail)).toContain(
      'Message was already sent by an earlier run of this step',
    );
    expect(await detailCount()).toBe(detailsBefore + 1);
  }, 60_000);

  it('the same entry queued three times at once: each job delivered once, one set of details', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('thrice')] });
    let transactionId: string;
    const copies: Job[] = [];
    try {
      let entries: Job[];
      ({ transactionId, entries } = await fanOutPaused({ name: workflow.identifier, to: ['thrice-1', 'thrice-2'] }, 2));
      copies.push(...entries);
      const jobIds = (await jobsOf(e, transactionId)).map((job) => job.id);
      for (let copy = 0; copy < 2; copy++)
        copies.push(await e.queue.add('run-step', { environmentId: e.environment.id, jobIds }));
    } finally {
      await steps().resume();
    }
    const done = await e.settled(transactionId, {
      until: (rows) => rows.every((job) => job.status === 'completed'),
    });
    // Every copy of the entry has run.
    for (const copy of copies) await e.processed(copy);
    expect(await messagesOf(e, transactionId)).toHaveLength(2);
    for (const job of done)
      expect((await detailsOf(e, job.id)).map((detail) => detail.detail)).toEqual(['Message created']);
  }, 60_000);

  it('an in_app outcome is written only while its row is claimable: a run that lost the race records nothing', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('raced')] });
    const {
      transactionId,
      jobs: [done],
    } = await e.triggerAndSettle({ name: workflow.identifier, to: 'raced-1' });
    const written = await e.app
      .get(JobRepository)
      .setOutcomes(e.environment.id, [{ id: done.id, status: 'failed', error: 'late', unclaimed: true }], new Date());
    expect(written.size).toBe(0);
    expect((await jobsOf(e, transactionId))[0]).toMatchObject({ status: 'completed', attempts: 1, error: null });
  });

  it('a fan-out canceled midway stops at a chunk boundary: no chunk half-written, no job left waiting', async () => {
    const scope = { environmentId: e.environment.id, organizationId: e.environment.organizationId };
    const members = await e.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: 10 * STEP_BATCH }, (_, index) => ({ subscriberId: `cancel-${index}` })),
    );
    const topics = e.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'canceled-midway', 'Canceled midway');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(e, { steps: [inApp('maybe')] });
    const transactionId = await trigger({
      name: workflow.identifier,
      to: { type: 'Topic', topicKey: 'canceled-midway' },
    });
    const notificationsOf = () =>
      e.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.transactionId, transactionId));
    // The fan-out's first chunk has committed.
    await e.until([transactionId], async () => (await notificationsOf()).length > 0, 'the first chunk');
    expect(await e.cancel(transactionId)).toBe(true);
    // Chunks in flight when the cancel landed commit or roll back whole; then the fan-out's entry ends.
    const eventOf = async () =>
      (await e.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId)))[0];
    const { id: eventId } = await eventOf();
    await e.processed((entry) => entry.queueName === QUEUE_NAMES.events && entry.data.eventIds.includes(eventId));
    expect((await eventOf()).status).toBe('canceled');
    const written = (await notificationsOf()).length;
    expect(written % STEP_BATCH).toBe(0);
    expect(written).toBeLessThan(members.length);
    const rows = await e.settled(transactionId, {
      until: (jobRows) => jobRows.every((job) => ['completed', 'canceled'].includes(job.status)),
    });
    expect(rows).toHaveLength(written);
  }, 90_000);

  it('a burst of single-recipient triggers (written together): each event done, each recipient one message', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('burst {{payload.n}}')] });
    const events = Array.from({ length: 60 }, (_, n) => ({
      name: workflow.identifier,
      to: `burst-${n}`,
      payload: { n },
    }));
    const transactionIds = (await e.triggerBulk(events)).map((item) => item.transactionId!);
    await e.settledAll(transactionIds, { timeoutMs: 30_000 });
    const stored = await e.db.select().from(triggerEvents).where(eq(triggerEvents.workflowId, workflow.id));
    expect(stored.map((event) => event.status)).toEqual(transactionIds.map(() => 'done'));
    const contents = (await Promise.all(transactionIds.map((id) => messagesOf(e, id)))).map(
      ([message]) => message.content,
    );
    expect(contents).toEqual(events.map((event) => `burst ${event.payload.n}`));
  }, 60_000);
  it('a burst of triggers naming new subscribers with fields: every subscriber written, fields of one named twice merged, a deleted one not restored', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('hello {{subscriber.firstName}}')] });
    await createSubscriber(e, { subscriberId: 'fields-gone' });
    await deleteSubscriber(e, 'fields-gone');
    const events = [
      ...Array.from({ length: 40 }, (_, n) => ({
        name: workflow.identifier,
        to: { subscriberId: `fields-${n}`, firstName: `First ${n}`, email: `fields-${n}@example.com` },
      })),
      { name: workflow.identifier, to: { subscriberId: 'fields-twice', firstName: 'Twice' } },
      { name: workflow.identifier, to: { subscriberId: 'fields-twice', lastName: 'Named' } },
      { name: workflow.identifier, to: { subscriberId: 'fields-gone', firstName: 'Back' } },
    ];
    const transactionIds = (await e.triggerBulk(events)).map((item) => item.transactionId!);
    // Every event fanned out (the deleted subscriber's to nobody), every live recipient's step ended.
    await e.settledAll(transactionIds, { timeoutMs: 30_000 });
    const messages = await Promise.all(transactionIds.map((id) => messagesOf(e, id)));
    expect(messages.slice(0, -1).every((rows) => rows.length === 1)).toBe(true);
    expect(messages.at(-1)).toEqual([]);
    const subscribers = e.app.get(SubscribersService);
    for (const n of [0, 17, 39]) {
      const subscriber = await subscribers.get(e.auth, `fields-${n}`);
      expect(subscriber).toMatchObject({ firstName: `First ${n}`, email: `fields-${n}@example.com` });
    }
    expect(await subscribers.get(e.auth, 'fields-twice')).toMatchObject({ firstName: 'Twice', lastName: 'Named' });
    await expect(subscribers.get(e.auth, 'fields-gone')).rejects.toMatchObject({ code: 'SUBSCRIBER_NOT_FOUND' });
  }, 60_000);
});
