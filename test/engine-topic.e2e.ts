import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { notifications, SubscriberRepository, TopicRepository } from '#dal';
import { createWorkflow, inApp, jobsOf } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

describe('fan-out of a large topic', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a 1,000-member topic: 1,000 notifications, none twice, the actor and excluded members left out', async () => {
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const members = await t.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: 1002 }, (_, index) => ({ subscriberId: `member-${index}` })),
    );
    const topics = t.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'big-topic', 'Big');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(t, { steps: [inApp('Broadcast')] });
    const res = await t.api('post', '/v1/events/trigger').send({
      name: workflow.identifier,
      // member-5 is listed directly and through the topic: it receives once.
      to: [{ type: 'Topic', topicKey: 'big-topic', exclude: ['member-0'] }, 'member-5'],
      actor: 'member-1',
    });
    expect(res.body.status).toBe('processed');
    const byTxn = eq(notifications.transactionId, res.body.transactionId);
    await waitFor(async () => (await t.db.select().from(notifications).where(byTxn)).length >= 1000, {
      timeoutMs: 30_000,
      description: '1000 notifications',
    });
    // Delivery of 1,000 in_app messages is the step runner's business; here: one job per notification, none twice.
    await waitFor(async () => (await jobsOf(t, res.body.transactionId)).length === 1000, {
      timeoutMs: 30_000,
      description: 'jobs',
    });
    const rows = await t.db.select().from(notifications).where(byTxn);
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row.subscriberId)).size).toBe(1000);
    const excluded = members
      .filter((member) => ['member-0', 'member-1'].includes(member.subscriberId))
      .map((member) => member.id);
    expect(rows.some((row) => excluded.includes(row.subscriberId))).toBe(false);
    const jobRows = await jobsOf(t, res.body.transactionId);
    expect(new Set(jobRows.map((job) => job.notificationId)).size).toBe(1000);
    expect(rows.find((row) => row.topics.length > 0)?.topics[0]).toEqual({ _topicId: topic.id, topicKey: 'big-topic' });
  }, 120_000);

  it('a topic listed many times reaches each member once; a `to` beyond 1,000 entries is a 422', async () => {
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const members = await t.app.get(SubscriberRepository).upsertMany(
      scope,
      ['r-1', 'r-2', 'r-3'].map((subscriberId) => ({ subscriberId })),
    );
    const topics = t.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'repeated', 'Repeated');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(t, { steps: [inApp('Once')] });
    const copy = (exclude: string[]) => ({ type: 'Topic', topicKey: 'repeated', exclude });
    const res = await t.api('post', '/v1/events/trigger').send({
      name: workflow.identifier,
      // r-3 is excluded by every copy; r-1 only by some, so another copy reaches it.
      to: [copy(['r-1', 'r-3']), ...Array.from({ length: 998 }, () => copy(['r-3', 'r-2'])), copy(['r-3'])],
    });
    expect(res.status).toBe(201);
    const byTxn = eq(notifications.transactionId, res.body.transactionId);
    await waitFor(async () => (await jobsOf(t, res.body.transactionId)).length === 2, { description: 'jobs' });
    const rows = await t.db.select().from(notifications).where(byTxn);
    const reached = members.filter((member) => rows.some((row) => row.subscriberId === member.id));
    expect(reached.map((member) => member.subscriberId).sort()).toEqual(['r-1', 'r-2']);
    expect(rows).toHaveLength(2);

    const tooMany = await t.api('post', '/v1/events/trigger').send({
      name: workflow.identifier,
      to: Array.from({ length: 1001 }, () => copy([])),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.to.messages[0]).toMatch(/at most 1000 recipients/);
  }, 60_000);
});
