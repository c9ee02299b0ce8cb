import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { JobRepository, jobs, notifications, SubscriberRepository, TopicRepository, triggerEvents } from '#dal';
import { QUEUE_NAMES, STEP_BATCH } from '#event-processing';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { sleep, waitFor } from './support/wait.js';

/**
 * Step jobs travel in batches: one queue entry per fan-out chunk. Each job row is still claimed and
 * finished on its own, so one job's failure or a re-delivered entry does not touch the others.
 */
describe('workflow engine: batched step entries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const steps = () => t.queue.queue(QUEUE_NAMES.steps);

  /** Triggers with the step queue paused, so the fan-out's entries wait; returns them and the queued jobs. */
  async function fanOutPaused(body: Record<string, unknown>, expectedJobs: number) {
    await steps().pause();
    const res = await t.api('post', '/v1/events/trigger').send(body);
    expect(res.status).toBe(201);
    const transactionId = res.body.transactionId as string;
    await waitFor(
      async () => (await jobsOf(t, transactionId)).filter((job) => job.status === 'queued').length === expectedJobs,
      {
        timeoutMs: 30_000,
        description: `${expectedJobs} queued jobs`,
      },
    );
    await waitFor(async () => (await steps().getWaiting()).some((entry) => entry.data.jobIds.length > 0), {
      description: 'the step entries',
    });
    return { transactionId, entries: await steps().getWaiting() };
  }

  it('a fan-out chunk of a topic is one queue entry carrying its step jobs', async () => {
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const members = await t.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: STEP_BATCH + 20 }, (_, index) => ({ subscriberId: `batch-${index}` })),
    );
    const topics = t.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'batched', 'Batched');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(t, { steps: [inApp('batched')] });
    try {
      const { transactionId, entries } = await fanOutPaused(
        { name: workflow.identifier, to: { type: 'Topic', topicKey: 'batched' } },
        members.length,
      );
      const jobIds = (await jobsOf(t, transactionId)).map((job) => job.id).sort();
      expect(entries.map((entry) => entry.data.jobIds.length).sort((a, b) => a - b)).toEqual([20, STEP_BATCH]);
      expect(entries.flatMap((entry) => entry.data.jobIds).sort()).toEqual(jobIds);
    } finally {
      await steps().resume();
    }
  }, 60_000);

  it('one job of an entry fails unexpectedly: the others complete, the retry runs only it, its last attempt fails it', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('Hi {{subscriber.subscriberId}}')] });
    let transactionId: string;
    try {
      ({ transactionId } = await fanOutPaused({ name: workflow.identifier, to: ['mixed-1', 'mixed-2', 'mixed-3'] }, 3));
      await steps().drain();
    } finally {
      await steps().resume();
    }
    const queued = await jobsOf(t, transactionId);
    // A step without its template makes the in_app step throw: an unexpected error, not a render error.
    const broken = queued[1];
    await t.db
      .update(jobs)
      .set({ step: { ...broken.step, template: undefined as never } })
      .where(eq(jobs.id, broken.id));
    await t.queue.add(
      'run-step',
      { environmentId: t.environment.id, jobIds: queued.map((job) => job.id) },
      { attempts: 2, backoff: { type: 'fixed', delay: 500 } },
    );

    await waitFor(
      async () => (await jobsOf(t, transactionId)).every((job) => ['completed', 'failed'].includes(job.status)),
      {
        timeoutMs: 20_000,
        description: 'every job to finish',
      },
    );
    const finished = await jobsOf(t, transactionId);
    expect(finished.map((job) => [job.id, job.status])).toEqual(
      queued.map((job) => [job.id, job.id === broken.id ? 'failed' : 'completed']),
    );
    // One recorded run each: the broken job's first attempt left nothing behind.
    expect(finished.map((job) => job.attempts)).toEqual([1, 1, 1]);
    expect((await messagesOf(t, transactionId)).map((message) => message.jobId).sort()).toEqual(
      queued
        .filter((job) => job.id !== broken.id)
        .map((job) => job.id)
        .sort(),
    );
    expect((await detailsOf(t, broken.id)).map((detail) => detail.detail)).toEqual([
      expect.stringMatching(/^Unexpected error: /),
    ]);
  }, 60_000);

  it('an entry delivered again (a crash before the queue heard back) adds nothing; a job whose outcome was lost re-runs once', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('once')] });
    let transactionId: string;
    try {
      ({ transactionId } = await fanOutPaused({ name: workflow.identifier, to: ['again-1', 'again-2', 'again-3'] }, 3));
    } finally {
      await steps().resume();
    }
    await waitFor(async () => (await messagesOf(t, transactionId)).length === 3, { description: 'three messages' });
    await waitFor(async () => (await jobsOf(t, transactionId)).every((job) => job.status === 'completed'), {
      description: 'completed jobs',
    });
    const done = await jobsOf(t, transactionId);
    const detailCount = async () => (await Promise.all(done.map((job) => detailsOf(t, job.id)))).flat().length;
    const detailsBefore = await detailCount();
    // The worker died after writing the message of the first job, before its status: the sweeper hands it back as queued.
    await t.db.update(jobs).set({ status: 'queued' }).where(eq(jobs.id, done[0].id));
    await t.queue.add('run-step', { environmentId: t.environment.id, jobIds: done.map((job) => job.id) });
    await waitFor(async () => (await jobsOf(t, transactionId))[0].status === 'completed', {
      description: 'the re-run',
    });
    await sleep(500);

    expect(await messagesOf(t, transactionId)).toHaveLength(3);
    expect((await jobsOf(t, transactionId)).map((job) => [job.status, job.attempts])).toEqual([
      ['completed', 2],
      ['completed', 1],
      ['completed', 1],
    ]);
    expect((await detailsOf(t, done[0].id)).map((detail) => detail.detail)).toContain(
      'Message was already sent by an earlier run of this step',
    );
    expect(await detailCount()).toBe(detailsBefore + 1);
  }, 60_000);

  it('the same entry queued three times at once: each job delivered once, one set of details', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('thrice')] });
    let transactionId: string;
    try {
      ({ transactionId } = await fanOutPaused({ name: workflow.identifier, to: ['thrice-1', 'thrice-2'] }, 2));
      const jobIds = (await jobsOf(t, transactionId)).map((job) => job.id);
      for (let copy = 0; copy < 2; copy++) await t.queue.add('run-step', { environmentId: t.environment.id, jobIds });
    } finally {
      await steps().resume();
    }
    await waitFor(async () => (await jobsOf(t, transactionId)).every((job) => job.status === 'completed'), {
      description: 'completed jobs',
    });
    await waitFor(
      async () => {
        const counts = await steps().getJobCounts('waiting', 'active');
        return counts.waiting + counts.active === 0;
      },
      { description: 'every copy of the entry to run' },
    );
    const done = await jobsOf(t, transactionId);
    expect(await messagesOf(t, transactionId)).toHaveLength(2);
    for (const job of done)
      expect((await detailsOf(t, job.id)).map((detail) => detail.detail)).toEqual(['Message created']);
  }, 60_000);

  it('an in_app outcome is written only while its row is claimable: a run that lost the race records nothing', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('raced')] });
    const {
      transactionId,
      jobs: [done],
    } = await triggerAndSettle(t, { name: workflow.identifier, to: 'raced-1' });
    const written = await t.app
      .get(JobRepository)
      .setOutcomes(t.environment.id, [{ id: done.id, status: 'failed', error: 'late', unclaimed: true }], new Date());
    expect(written.size).toBe(0);
    expect((await jobsOf(t, transactionId))[0]).toMatchObject({ status: 'completed', attempts: 1, error: null });
  });

  it('a fan-out canceled midway stops at a chunk boundary: no chunk half-written, no job left waiting', async () => {
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const members = await t.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: 10 * STEP_BATCH }, (_, index) => ({ subscriberId: `cancel-${index}` })),
    );
    const topics = t.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'canceled-midway', 'Canceled midway');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(t, { steps: [inApp('maybe')] });
    const res = await t
      .api('post', '/v1/events/trigger')
      .send({ name: workflow.identifier, to: { type: 'Topic', topicKey: 'canceled-midway' } });
    const transactionId = res.body.transactionId as string;
    const notificationsOf = () =>
      t.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.transactionId, transactionId));
    await waitFor(async () => (await notificationsOf()).length > 0, {
      timeoutMs: 30_000,
      description: 'the first chunk',
    });
    expect((await t.api('delete', `/v1/events/trigger/${transactionId}`)).body).toBe(true);
    // Chunks in flight when the cancel landed commit or roll back whole.
    await sleep(2_000);
    const [event] = await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId));
    expect(event.status).toBe('canceled');
    const written = (await notificationsOf()).length;
    expect(written % STEP_BATCH).toBe(0);
    expect(written).toBeLessThan(members.length);
    await waitFor(
      async () => (await jobsOf(t, transactionId)).every((job) => ['completed', 'canceled'].includes(job.status)),
      { description: 'no job left waiting' },
    );
    expect(await jobsOf(t, transactionId)).toHaveLength(written);
  }, 90_000);

  it('a burst of single-recipient triggers (written together): each event done, each recipient one message', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('burst {{payload.n}}')] });
    const events = Array.from({ length: 60 }, (_, n) => ({
      name: workflow.identifier,
      to: `burst-${n}`,
      payload: { n },
    }));
    const res = await t.api('post', '/v1/events/trigger/bulk').send({ events });
    expect(res.status).toBe(201);
    const transactionIds = (res.body as { transactionId: string }[]).map((item) => item.transactionId);
    await waitFor(
      async () => (await Promise.all(transactionIds.map((id) => messagesOf(t, id)))).every((rows) => rows.length === 1),
      {
        timeoutMs: 30_000,
        description: 'one message per trigger',
      },
    );
    const stored = await t.db.select().from(triggerEvents).where(eq(triggerEvents.workflowId, workflow.id));
    expect(stored.map((event) => event.status)).toEqual(transactionIds.map(() => 'done'));
    const contents = (await Promise.all(transactionIds.map((id) => messagesOf(t, id)))).map(
      ([message]) => message.content,
    );
    expect(contents).toEqual(events.map((event) => `burst ${event.payload.n}`));
  }, 60_000);
  it('a burst of triggers naming new subscribers with fields: every subscriber written, fields of one named twice merged, a deleted one not restored', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('hello {{subscriber.firstName}}')] });
    await t.api('post', '/v2/subscribers').send({ subscriberId: 'fields-gone' }).expect(201);
    await t.api('delete', '/v2/subscribers/fields-gone').expect(200);
    const events = [
      ...Array.from({ length: 40 }, (_, n) => ({
        name: workflow.identifier,
        to: { subscriberId: `fields-${n}`, firstName: `First ${n}`, email: `fields-${n}@example.com` },
      })),
      { name: workflow.identifier, to: { subscriberId: 'fields-twice', firstName: 'Twice' } },
      { name: workflow.identifier, to: { subscriberId: 'fields-twice', lastName: 'Named' } },
      { name: workflow.identifier, to: { subscriberId: 'fields-gone', firstName: 'Back' } },
    ];
    const res = await t.api('post', '/v1/events/trigger/bulk').send({ events });
    expect(res.status).toBe(201);
    const transactionIds = (res.body as { transactionId: string }[]).map((item) => item.transactionId);
    await waitFor(
      async () => {
        const rows = await t.db.select().from(triggerEvents).where(eq(triggerEvents.workflowId, workflow.id));
        return rows.length === events.length && rows.every((row) => row.status === 'done');
      },
      { timeoutMs: 30_000, description: 'every event fanned out' },
    );
    const live = transactionIds.slice(0, -1);
    await waitFor(
      async () => (await Promise.all(live.map((id) => messagesOf(t, id)))).every((rows) => rows.length === 1),
      { timeoutMs: 30_000, description: 'one message per live recipient' },
    );
    const messages = await Promise.all(transactionIds.map((id) => messagesOf(t, id)));
    expect(messages.at(-1)).toEqual([]);
    for (const n of [0, 17, 39]) {
      const subscriber = await t.api('get', `/v2/subscribers/fields-${n}`).expect(200);
      expect(subscriber.body).toMatchObject({ firstName: `First ${n}`, email: `fields-${n}@example.com` });
    }
    const twice = await t.api('get', '/v2/subscribers/fields-twice').expect(200);
    expect(twice.body).toMatchObject({ firstName: 'Twice', lastName: 'Named' });
    await t.api('get', '/v2/subscribers/fields-gone').expect(404);
  }, 60_000);
});
