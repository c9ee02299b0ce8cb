import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { newId } from '#common';
import { jobs, messages, notifications, SubscriberRepository, TopicRepository, triggerEvents } from '#dal';
import { QUEUE_NAMES, RecoverySweeper } from '#event-processing';
import { SubscribersService } from '#api/subscribers/subscribers.service.js';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf, step } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { deleteSubscriber, inboxNotifications } from './support/engine-seeds.js';

const LONG_AGO = () => new Date(Date.now() - 10 * 60_000);

describe('workflow engine: recovery, cancel before fan-out, deleted subscribers', () => {
  let e: Engine;
  let scope: { environmentId: string; organizationId: string };
  beforeAll(async () => {
    e = await startEngine();
    scope = { environmentId: e.environment.id, organizationId: e.environment.organizationId };
  });
  afterAll(async () => {
    await e?.close();
  });
  const fannedOut = { until: (_jobs: unknown[], event: string | undefined) => event === 'done' };

  const eventOf = async (transactionId: string) =>
    (await e.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId)))[0];
  const notificationsOf = (transactionId: string) =>
    e.db.select().from(notifications).where(eq(notifications.transactionId, transactionId));
  /** An accepted event whose fan-out entry never reached the queue (or whose worker died), as a crash leaves it. */
  const storeEvent = async (
    workflowId: string,
    transactionId: string,
    to: unknown,
    status: 'received' | 'processing' = 'received',
  ) => {
    // Straight into the table: the repository's insert stores what the api accepts (received, now).
    const [row] = await e.db
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
      const workflow = await createWorkflow(e, { steps: [inApp('recovered')] });
      await storeEvent(workflow.id, 'txn-processing', ['rec-a', 'rec-b'], 'processing');
      await e.app.get(RecoverySweeper).sweep();
      await e.settled('txn-processing');
      expect(await messagesOf(e, 'txn-processing')).toHaveLength(2);
    });

    it('ends a snooze whose wake-up entry was lost, and leaves a future snooze alone', async () => {
      const workflow = await createWorkflow(e, { steps: [inApp('snoozed')] });
      const { transactionId: lost } = await e.triggerAndSettle({ name: workflow.identifier, to: 'rec-snooze' });
      const { transactionId: later } = await e.triggerAndSettle({ name: workflow.identifier, to: 'rec-snooze' });
      const [lostMessage] = await messagesOf(e, lost);
      const [laterMessage] = await messagesOf(e, later);
      // Snoozed straight in the table, so no wake-up entry exists: as after a queue lost its delayed entries.
      await e.db.update(messages).set({ snoozedUntil: LONG_AGO() }).where(eq(messages.id, lostMessage.id));
      const inAnHour = new Date(Date.now() + 3_600_000);
      await e.db.update(messages).set({ snoozedUntil: inAnHour }).where(eq(messages.id, laterMessage.id));
      const listed = async () => (await inboxNotifications(e, 'rec-snooze')).map((item) => item.id as string);
      expect(await listed()).not.toContain(laterMessage.id);

      // The app's own timer may sweep first; either way the lost snooze ends exactly once.
      await e.app.get(RecoverySweeper).sweep();

      expect(await listed()).toEqual([lostMessage.id]);
      const [woken] = await messagesOf(e, lost);
      expect(woken.snoozedUntil).toBeNull();
      expect(woken.deliveredAt).toHaveLength(lostMessage.deliveredAt.length + 1);
      expect((await messagesOf(e, later))[0].snoozedUntil).toEqual(inAnHour);
    });

    it('re-runs a job left `running` by a dead worker: exactly one message', async () => {
      const workflow = await createWorkflow(e, { steps: [inApp('once')] });
      const {
        transactionId,
        jobs: [done],
      } = await e.triggerAndSettle({ name: workflow.identifier, to: 'rec-running' });
      // The worker died after creating the message, before recording the job's outcome.
      await e.db.update(jobs).set({ status: 'running', updatedAt: LONG_AGO() }).where(eq(jobs.id, done.id));
      await e.app.get(RecoverySweeper).sweep();
      expect((await e.settled(transactionId))[0].status).toBe('completed');
      expect(await messagesOf(e, transactionId)).toHaveLength(1);
      expect((await detailsOf(e, done.id)).map((detail) => detail.detail)).toContain(
        'Message was already sent by an earlier run of this step',
      );
    });

    it('resumes a delay whose worker died mid-resume, then runs the next step', async () => {
      const workflow = await createWorkflow(e, {
        steps: [
          step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }),
          inApp('after'),
        ],
      });
      const {
        transactionId,
        jobs: [delay],
      } = await e.triggerAndSettle(
        { name: workflow.identifier, to: 'rec-delay' },
        { until: (rows) => rows[0]?.status === 'delayed' },
      );
      await e.db
        .update(jobs)
        .set({ status: 'running', runAt: new Date(Date.now() - 1_000), updatedAt: LONG_AGO() })
        .where(eq(jobs.id, delay.id));
      await e.app.get(RecoverySweeper).sweep();
      const chain = await e.settled(transactionId);
      expect(chain.map((job) => job.status)).toEqual(['completed', 'completed']);
      expect((await detailsOf(e, delay.id)).map((detail) => detail.detail)).toContain('Delay is finished');
      expect(await messagesOf(e, transactionId)).toHaveLength(1);
    });

    it('leaves a queued job alone while the step queue has a backlog, takes it once the queue is empty', async () => {
      const workflow = await createWorkflow(e, { steps: [inApp('late')] });
      const {
        transactionId,
        jobs: [done],
      } = await e.triggerAndSettle({ name: workflow.identifier, to: 'rec-backlog' });
      await e.db.delete(messages).where(eq(messages.jobId, done.id));
      const steps = e.queue.queue(QUEUE_NAMES.steps);
      await steps.pause();
      let backlog: Job | undefined;
      try {
        backlog = await e.queue.add('run-step', { environmentId: e.environment.id, jobIds: [newId()] });
        // Older than the grace (5 s), younger than the backlog grace (10 × 5 s).
        const updatedAt = new Date(Date.now() - 20_000);
        await e.db.update(jobs).set({ status: 'queued', updatedAt }).where(eq(jobs.id, done.id));
        await e.app.get(RecoverySweeper).sweep();
        expect((await jobsOf(e, transactionId))[0].updatedAt).toEqual(updatedAt);
      } finally {
        await steps.resume();
      }
      await e.processed(backlog);
      await e.app.get(RecoverySweeper).sweep();
      await e.until([transactionId], async () => (await messagesOf(e, transactionId)).length === 1, 'the re-run');
    });

    it('leaves a running job with a fresh heartbeat alone', async () => {
      const workflow = await createWorkflow(e, { steps: [inApp('busy')] });
      const {
        jobs: [done],
      } = await e.triggerAndSettle({ name: workflow.identifier, to: 'rec-busy' });
      await e.db.update(jobs).set({ status: 'running', updatedAt: new Date() }).where(eq(jobs.id, done.id));
      await e.app.get(RecoverySweeper).sweep();
      expect((await jobsOf(e, done.transactionId))[0].status).toBe('running');
      await e.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.id, done.id));
    });
  });

  describe('DELETE /v1/events/trigger before fan-out', () => {
    it('cancels a `received` event: the fan-out creates nothing', async () => {
      const workflow = await createWorkflow(e, { steps: [inApp('never')] });
      const event = await storeEvent(workflow.id, 'txn-early-cancel', 'early-cancel-sub');
      expect(await e.cancel('txn-early-cancel')).toBe(true);
      expect((await eventOf('txn-early-cancel')).status).toBe('canceled');
      // The queue entry arrives after all (and the sweeper leaves a canceled event alone).
      const entry = await e.queue.add('fan-out', { eventIds: [event.id], environmentId: event.environmentId });
      expect((await e.app.get(RecoverySweeper).sweep()).events).toBe(0);
      await e.processed(entry);
      expect(await notificationsOf('txn-early-cancel')).toHaveLength(0);
      expect((await eventOf('txn-early-cancel')).status).toBe('canceled');
      expect(await e.cancel('txn-early-cancel')).toBe(false);
    });
  });

  describe('deleted subscribers receive nothing', () => {
    it('named in `to` by subscriberId or object: not revived, no notification', async () => {
      const subscribers = e.app.get(SubscriberRepository);
      await subscribers.upsertMany(scope, [{ subscriberId: 'gone-1' }, { subscriberId: 'gone-2', firstName: 'Old' }]);
      await deleteSubscriber(e, 'gone-1');
      await deleteSubscriber(e, 'gone-2');
      const workflow = await createWorkflow(e, { steps: [inApp('hi')] });
      const { transactionId } = await e.triggerAndSettle(
        {
          name: workflow.identifier,
          to: ['gone-1', { subscriberId: 'gone-2', firstName: 'New' }, 'alive-1'],
          actor: 'gone-1',
        },
        fannedOut,
      );
      const rows = await notificationsOf(transactionId);
      const alive = await subscribers.findBySubscriberId(e.environment.id, 'alive-1');
      expect(rows.map((row) => row.subscriberId)).toEqual([alive!.id]);
      expect(await subscribers.findBySubscriberId(e.environment.id, 'gone-1')).toBeUndefined();
      expect(await subscribers.findBySubscriberId(e.environment.id, 'gone-2')).toBeUndefined();
      await expect(e.app.get(SubscribersService).get(e.auth, 'gone-2')).rejects.toMatchObject({
        code: 'SUBSCRIBER_NOT_FOUND',
      });
    });

    it('members of a topic: skipped, the other members still receive', async () => {
      const subscribers = e.app.get(SubscriberRepository);
      const members = await subscribers.upsertMany(
        scope,
        ['t-1', 't-2', 't-3'].map((subscriberId) => ({ subscriberId })),
      );
      const topics = e.app.get(TopicRepository);
      const { row: topic } = await topics.upsert(scope, 'with-deleted', 'With deleted');
      await topics.addMembers(
        scope,
        topic.id,
        members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
      );
      await deleteSubscriber(e, 't-2');
      const workflow = await createWorkflow(e, { steps: [inApp('topic')] });
      const { transactionId } = await e.triggerAndSettle(
        { name: workflow.identifier, to: { type: 'Topic', topicKey: 'with-deleted' } },
        fannedOut,
      );
      const received = (await notificationsOf(transactionId)).map((row) => row.subscriberId).sort();
      expect(received).toEqual(
        members
          .filter((member) => member.subscriberId !== 't-2')
          .map((member) => member.id)
          .sort(),
      );
    });
  });
});
