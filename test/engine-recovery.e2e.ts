import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { newId } from '#common';
import { jobs, messages, notifications, SubscriberRepository, TopicRepository, triggerEvents } from '#dal';
import { QUEUE_NAMES, RecoverySweeper } from '#event-processing';
import {
  createWorkflow,
  detailsOf,
  inApp,
  jobsOf,
  messagesOf,
  step,
  triggerAndSettle,
} from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { sleep, waitFor } from './support/wait.js';

const LONG_AGO = () => new Date(Date.now() - 10 * 60_000);

describe('workflow engine: recovery, cancel before fan-out, deleted subscribers', () => {
  let t: TestApp;
  let scope: { environmentId: string; organizationId: string };
  beforeAll(async () => {
    t = await startTestApp();
    scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
  });
  afterAll(async () => {
    await t?.close();
  });

  const eventOf = async (transactionId: string) =>
    (await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId)))[0];
  const notificationsOf = (transactionId: string) =>
    t.db.select().from(notifications).where(eq(notifications.transactionId, transactionId));
  /** An accepted event whose fan-out entry never reached the queue (or whose worker died), as a crash leaves it. */
  const storeEvent = async (
    workflowId: string,
    transactionId: string,
    to: unknown,
    status: 'received' | 'processing' = 'received',
  ) => {
    // Straight into the table: the repository's insert stores what the api accepts (received, now).
    const [row] = await t.db
      .insert(triggerEvents)
      .values({
        id: newId(),
        ...scope,
        transactionId,
        workflowId,
        request: { to, payload: {} },
        status,
        updatedAt: LONG_AGO(),
      })
      .returning();
    return row;
  };

  describe('recovery sweeper', () => {
    it('fans out an event left `processing` by a dead worker', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('recovered')] });
      await storeEvent(workflow.id, 'txn-processing', ['rec-a', 'rec-b'], 'processing');
      await t.app.get(RecoverySweeper).sweep();
      await waitFor(async () => (await eventOf('txn-processing')).status === 'done', { description: 'the fan-out' });
      await waitFor(async () => (await messagesOf(t, 'txn-processing')).length === 2, { description: 'two messages' });
    });

    it('ends a snooze whose wake-up entry was lost, and leaves a future snooze alone', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('snoozed')] });
      const { transactionId: lost } = await triggerAndSettle(t, { name: workflow.identifier, to: 'rec-snooze' });
      const { transactionId: later } = await triggerAndSettle(t, { name: workflow.identifier, to: 'rec-snooze' });
      const [lostMessage] = await messagesOf(t, lost);
      const [laterMessage] = await messagesOf(t, later);
      // Snoozed straight in the table, so no wake-up entry exists: as after a queue lost its delayed entries.
      await t.db.update(messages).set({ snoozedUntil: LONG_AGO() }).where(eq(messages.id, lostMessage.id));
      const inAnHour = new Date(Date.now() + 3_600_000);
      await t.db.update(messages).set({ snoozedUntil: inAnHour }).where(eq(messages.id, laterMessage.id));
      const listed = async () =>
        ((await t.api('get', '/v2/subscribers/rec-snooze/notifications')).body as { data: { id: string }[] }).data.map(
          (item) => item.id,
        );
      expect(await listed()).not.toContain(laterMessage.id);

      // The app's own timer may sweep first; either way the lost snooze ends exactly once.
      await t.app.get(RecoverySweeper).sweep();

      expect(await listed()).toEqual([lostMessage.id]);
      const [woken] = await messagesOf(t, lost);
      expect(woken.snoozedUntil).toBeNull();
      expect(woken.deliveredAt).toHaveLength(lostMessage.deliveredAt.length + 1);
      expect((await messagesOf(t, later))[0].snoozedUntil).toEqual(inAnHour);
    });

    it('re-runs a job left `running` by a dead worker: exactly one message', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('once')] });
      const {
        transactionId,
        jobs: [done],
      } = await triggerAndSettle(t, { name: workflow.identifier, to: 'rec-running' });
      // The worker died after creating the message, before recording the job's outcome.
      await t.db.update(jobs).set({ status: 'running', updatedAt: LONG_AGO() }).where(eq(jobs.id, done.id));
      await t.app.get(RecoverySweeper).sweep();
      await waitFor(async () => (await jobsOf(t, transactionId))[0].status === 'completed', {
        description: 'the re-run',
      });
      expect(await messagesOf(t, transactionId)).toHaveLength(1);
      expect((await detailsOf(t, done.id)).map((detail) => detail.detail)).toContain(
        'Message was already sent by an earlier run of this step',
      );
    });

    it('resumes a delay whose worker died mid-resume, then runs the next step', async () => {
      const workflow = await createWorkflow(t, {
        steps: [
          step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }),
          inApp('after'),
        ],
      });
      const {
        transactionId,
        jobs: [delay],
      } = await triggerAndSettle(
        t,
        { name: workflow.identifier, to: 'rec-delay' },
        (rows) => rows[0]?.status === 'delayed',
      );
      await t.db
        .update(jobs)
        .set({ status: 'running', runAt: new Date(Date.now() - 1_000), updatedAt: LONG_AGO() })
        .where(eq(jobs.id, delay.id));
      await t.app.get(RecoverySweeper).sweep();
      await waitFor(async () => (await jobsOf(t, transactionId)).every((job) => job.status === 'completed'), {
        description: 'the chain',
      });
      expect((await detailsOf(t, delay.id)).map((detail) => detail.detail)).toContain('Delay is finished');
      expect(await messagesOf(t, transactionId)).toHaveLength(1);
    });

    it('leaves a queued job alone while the step queue has a backlog, takes it once the queue is empty', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('late')] });
      const {
        transactionId,
        jobs: [done],
      } = await triggerAndSettle(t, { name: workflow.identifier, to: 'rec-backlog' });
      await t.db.delete(messages).where(eq(messages.jobId, done.id));
      const steps = t.queue.queue(QUEUE_NAMES.steps);
      await steps.pause();
      try {
        await t.queue.add('run-step', { environmentId: t.environment.id, jobIds: [newId()] });
        // Older than the grace (5 s), younger than the backlog grace (10 × 5 s).
        const updatedAt = new Date(Date.now() - 20_000);
        await t.db.update(jobs).set({ status: 'queued', updatedAt }).where(eq(jobs.id, done.id));
        await t.app.get(RecoverySweeper).sweep();
        expect((await jobsOf(t, transactionId))[0].updatedAt).toEqual(updatedAt);
      } finally {
        await steps.resume();
      }
      await waitFor(async () => (await steps.getJobCounts('waiting')).waiting === 0, {
        description: 'the backlog to drain',
      });
      await t.app.get(RecoverySweeper).sweep();
      await waitFor(async () => (await messagesOf(t, transactionId)).length === 1, { description: 'the re-run' });
    });

    it('leaves a running job with a fresh heartbeat alone', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('busy')] });
      const {
        jobs: [done],
      } = await triggerAndSettle(t, { name: workflow.identifier, to: 'rec-busy' });
      await t.db.update(jobs).set({ status: 'running', updatedAt: new Date() }).where(eq(jobs.id, done.id));
      await t.app.get(RecoverySweeper).sweep();
      expect((await jobsOf(t, done.transactionId))[0].status).toBe('running');
      await t.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.id, done.id));
    });
  });

  describe('DELETE /v1/events/trigger before fan-out', () => {
    it('cancels a `received` event: the fan-out creates nothing', async () => {
      const workflow = await createWorkflow(t, { steps: [inApp('never')] });
      const event = await storeEvent(workflow.id, 'txn-early-cancel', 'early-cancel-sub');
      const res = await t.api('delete', '/v1/events/trigger/txn-early-cancel');
      expect([res.status, res.body]).toEqual([200, true]);
      expect((await eventOf('txn-early-cancel')).status).toBe('canceled');
      // The queue entry arrives after all (and the sweeper leaves a canceled event alone).
      await t.queue.add('fan-out', { eventIds: [event.id], environmentId: event.environmentId });
      expect((await t.app.get(RecoverySweeper).sweep()).events).toBe(0);
      await sleep(1_000);
      expect(await notificationsOf('txn-early-cancel')).toHaveLength(0);
      expect((await eventOf('txn-early-cancel')).status).toBe('canceled');
      expect((await t.api('delete', '/v1/events/trigger/txn-early-cancel')).body).toBe(false);
    });
  });

  describe('deleted subscribers receive nothing', () => {
    it('named in `to` by subscriberId or object: not revived, no notification', async () => {
      const subscribers = t.app.get(SubscriberRepository);
      await subscribers.upsertMany(scope, [{ subscriberId: 'gone-1' }, { subscriberId: 'gone-2', firstName: 'Old' }]);
      await t.api('delete', '/v2/subscribers/gone-1').expect(200);
      await t.api('delete', '/v2/subscribers/gone-2').expect(200);
      const workflow = await createWorkflow(t, { steps: [inApp('hi')] });
      const res = await t.api('post', '/v1/events/trigger').send({
        name: workflow.identifier,
        to: ['gone-1', { subscriberId: 'gone-2', firstName: 'New' }, 'alive-1'],
        actor: 'gone-1',
      });
      expect(res.body.status).toBe('processed');
      await waitFor(async () => (await eventOf(res.body.transactionId))?.status === 'done', {
        description: 'the fan-out',
      });
      const rows = await notificationsOf(res.body.transactionId);
      const alive = await subscribers.findBySubscriberId(t.environment.id, 'alive-1');
      expect(rows.map((row) => row.subscriberId)).toEqual([alive!.id]);
      expect(await subscribers.findBySubscriberId(t.environment.id, 'gone-1')).toBeUndefined();
      expect(await subscribers.findBySubscriberId(t.environment.id, 'gone-2')).toBeUndefined();
      expect((await t.api('get', '/v2/subscribers/gone-2')).status).toBe(404);
    });

    it('members of a topic: skipped, the other members still receive', async () => {
      const subscribers = t.app.get(SubscriberRepository);
      const members = await subscribers.upsertMany(
        scope,
        ['t-1', 't-2', 't-3'].map((subscriberId) => ({ subscriberId })),
      );
      const topics = t.app.get(TopicRepository);
      const { row: topic } = await topics.upsert(scope, 'with-deleted', 'With deleted');
      await topics.addMembers(
        scope,
        topic.id,
        members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
      );
      await t.api('delete', '/v2/subscribers/t-2').expect(200);
      const workflow = await createWorkflow(t, { steps: [inApp('topic')] });
      const res = await t
        .api('post', '/v1/events/trigger')
        .send({ name: workflow.identifier, to: { type: 'Topic', topicKey: 'with-deleted' } });
      await waitFor(async () => (await eventOf(res.body.transactionId))?.status === 'done', {
        description: 'the fan-out',
      });
      const received = (await notificationsOf(res.body.transactionId)).map((row) => row.subscriberId).sort();
      expect(received).toEqual(
        members
          .filter((member) => member.subscriberId !== 't-2')
          .map((member) => member.id)
          .sort(),
      );
    });
  });
});
