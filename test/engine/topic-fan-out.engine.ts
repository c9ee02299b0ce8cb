import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import type { DomainError } from '#common';
import { notifications, SubscriberRepository, TopicRepository } from '#dal';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';

describe('fan-out of a large topic', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    await e?.close();
  });
  /** Once its event is done, every notification and job of the fan-out exists. */
  const fannedOut = { until: (_jobs: unknown[], event: string | undefined) => event === 'done', timeoutMs: 30_000 };

  it('a 1,000-member topic: 1,000 notifications, none twice, the actor and excluded members left out', async () => {
    const scope = { environmentId: e.environment.id, organizationId: e.environment.organizationId };
    const members = await e.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: 1002 }, (_, index) => ({ subscriberId: `member-${index}` })),
    );
    const topics = e.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'big-topic', 'Big');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(e, { steps: [inApp('Broadcast')] });
    const response = await e.trigger({
      name: workflow.identifier,
      // member-5 is listed directly and through the topic: it receives once.
      to: [{ type: 'Topic', topicKey: 'big-topic', exclude: ['member-0'] }, 'member-5'],
      actor: 'member-1',
    });
    expect(response.status).toBe('processed');
    const transactionId = response.transactionId!;
    // Delivery of 1,000 in_app messages is the step runner's business; here: one job per notification, none twice.
    const jobRows = await e.settled(transactionId, fannedOut);
    expect(jobRows).toHaveLength(1000);
    const rows = await e.db.select().from(notifications).where(eq(notifications.transactionId, transactionId));
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row.subscriberId)).size).toBe(1000);
    const excluded = members
      .filter((member) => ['member-0', 'member-1'].includes(member.subscriberId))
      .map((member) => member.id);
    expect(rows.some((row) => excluded.includes(row.subscriberId))).toBe(false);
    expect(new Set(jobRows.map((job) => job.notificationId)).size).toBe(1000);
    expect(rows.find((row) => row.topics.length > 0)?.topics[0]).toEqual({ _topicId: topic.id, topicKey: 'big-topic' });
  }, 120_000);

  it('a topic listed many times reaches each member once; a `to` beyond 1,000 entries is a 422', async () => {
    const scope = { environmentId: e.environment.id, organizationId: e.environment.organizationId };
    const members = await e.app.get(SubscriberRepository).upsertMany(
      scope,
      ['r-1', 'r-2', 'r-3'].map((subscriberId) => ({ subscriberId })),
    );
    const topics = e.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'repeated', 'Repeated');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(e, { steps: [inApp('Once')] });
    const copy = (exclude: string[]) => ({ type: 'Topic', topicKey: 'repeated', exclude });
    const response = await e.trigger({
      name: workflow.identifier,
      // r-3 is excluded by every copy; r-1 only by some, so another copy reaches it.
      to: [copy(['r-1', 'r-3']), ...Array.from({ length: 998 }, () => copy(['r-3', 'r-2'])), copy(['r-3'])],
    });
    const transactionId = response.transactionId!;
    expect(await e.settled(transactionId, fannedOut)).toHaveLength(2);
    const rows = await e.db.select().from(notifications).where(eq(notifications.transactionId, transactionId));
    const reached = members.filter((member) => rows.some((row) => row.subscriberId === member.id));
    expect(reached.map((member) => member.subscriberId).sort()).toEqual(['r-1', 'r-2']);
    expect(rows).toHaveLength(2);

    // The route's validation refuses it: a 422 with the field's message.
    const refused = await e
      .trigger({ name: workflow.identifier, to: Array.from({ length: 1001 }, () => copy([])) })
      .then(
        () => undefined,
        (error: unknown) => error as DomainError,
      );
    expect(refused?.code).toBe('VALIDATION_FAILED');
    expect(refused?.fieldErrors?.to.messages[0]).toMatch(/at most 1000 recipients/);
  }, 60_000);
});
