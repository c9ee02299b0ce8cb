import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { SubscriberRepository, TopicRepository } from '#dal';
import { createWorkflow, inApp, messagesOf } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { waitFor } from './support/wait.js';

const MEMBERS = 20;
/** The tables a trigger writes: its event, then a notification, a job and a message per recipient. */
const TABLES = ['trigger_events', 'notifications', 'jobs', 'messages'];

/**
 * A trigger's payload (and overrides) is stored once, on its trigger event, not
 * copied into every notification, job and message of its recipients; the API still shows it on each.
 */
describe('a trigger payload is stored once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Bytes of the tables with their TOAST tables and indexes. */
  const tableBytes = async (): Promise<number> => {
    const result = await t.db.execute<{ bytes: string }>(
      sql.raw(
        `SELECT (${TABLES.map((table) => `pg_total_relation_size('${table}')`).join(' + ')})::bigint::text AS bytes`,
      ),
    );
    return Number(result.rows[0].bytes);
  };

  it(`a ~400 KB payload to a ${MEMBERS}-member topic grows the database by less than 3× the payload; every message and notification still shows it`, async () => {
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const members = await t.app.get(SubscriberRepository).upsertMany(
      scope,
      Array.from({ length: MEMBERS }, (_, index) => ({ subscriberId: `payload-member-${index}` })),
    );
    const topics = t.app.get(TopicRepository);
    const { row: topic } = await topics.upsert(scope, 'payload-topic', 'Payload');
    await topics.addMembers(
      scope,
      topic.id,
      members.map((member) => ({ subscriberId: member.id, externalSubscriberId: member.subscriberId })),
    );
    const workflow = await createWorkflow(t, { steps: [inApp('Order {{payload.order}}')] });
    // Random base64 does not compress: TOAST cannot hide copies of it.
    const payload = { order: 'o-400', blob: randomBytes(300 * 1024).toString('base64') };
    const overrides = { in_app: { tag: 'payload-test' } };
    const payloadBytes = Buffer.byteLength(JSON.stringify(payload));
    expect(payloadBytes).toBeGreaterThan(400_000);

    const before = await tableBytes();
    const res = await t
      .api('post', '/v1/events/trigger')
      .send({ name: workflow.identifier, to: [{ type: 'Topic', topicKey: 'payload-topic' }], payload, overrides });
    expect(res.status).toBe(201);
    const { transactionId } = res.body;
    await waitFor(async () => (await messagesOf(t, transactionId)).length === MEMBERS, {
      timeoutMs: 30_000,
      description: `${MEMBERS} messages`,
    });
    const grown = (await tableBytes()) - before;
    // Copied into 20 notifications, 20 jobs and 20 messages, it had grown them by ~60× the payload.
    expect(grown).toBeLessThan(3 * payloadBytes);

    const rendered = await messagesOf(t, transactionId);
    expect(rendered.map((message) => message.content)).toEqual(Array(MEMBERS).fill('Order o-400'));

    const listed = await t.api('get', `/v1/messages?transactionId=${transactionId}&limit=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(MEMBERS);
    for (const message of listed.body.data as Body[]) {
      expect(message.payload).toEqual(payload);
      expect(message.overrides).toEqual(overrides);
    }

    const feed = await t.api('get', `/v1/subscribers/${members[0].subscriberId}/notifications/feed`);
    expect(feed.status).toBe(200);
    expect(feed.body.data).toHaveLength(1);
    expect(feed.body.data[0]).toMatchObject({ content: 'Order o-400', payload, overrides });

    const notifications = await t.api('get', `/v1/notifications?transactionId=${transactionId}&limit=50`);
    expect(notifications.status).toBe(200);
    expect(notifications.body.data).toHaveLength(MEMBERS);
    for (const item of notifications.body.data as Body[]) {
      expect(item.payload).toEqual(payload);
      expect(item.jobs).toHaveLength(1);
      expect(item.jobs[0]).toMatchObject({ type: 'in_app', status: 'completed', payload, overrides });
    }
  }, 120_000);
});
