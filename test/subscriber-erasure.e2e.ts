import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import type { Response } from 'supertest';
import { newId, TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import {
  activityWriteLock,
  executionDetails,
  jobs,
  MessageRepository,
  messages,
  NotificationRepository,
  notifications,
  preferences,
  SubscriberRepository,
  subscribers,
  topicSubscribers,
  triggerEvents,
} from '#dal';
import { createIntegration, createSubscriber, createTopic, insertMessages } from './support/builders.js';
import { createWorkflow, inApp, jobsOf, messagesOf, step } from './support/engine-fixtures.js';
import { startProviderReceiver, startSmtpReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { sleep, waitFor } from './support/wait.js';

/** A table's row, as text, holding one of the needles looked for. */
interface Found {
  table: string;
  row: string;
}

/**
 * Deleting a subscriber (`DELETE /v2/subscribers/{id}`, Novu's call) erases what it held at once: its
 * personal fields and channel credentials, messages of every channel, notifications with their jobs
 * and execution details, preferences, topic memberships and its entries in trigger bodies; its row
 * stays with its ids only. A step or fan-out of the subscriber writes nothing after the delete.
 */
describe('subscriber erasure', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let echo: ProviderReceiver;
  const suffix = newId().slice(-8);

  beforeAll(async () => {
    t = await startTestApp();
    smtp = await startSmtpReceiver();
    // Answers with the body it was sent: the step's execution detail and job keep what the subscriber's request held.
    echo = await startProviderReceiver({ answer: (request) => ({ body: request.json }) });
    await createIntegration(t, { providerId: 'discord', channel: 'chat' });
    await createIntegration(t, {
      providerId: 'nodemailer',
      channel: 'email',
      credentials: { host: '127.0.0.1', port: String(smtp.port), secure: false, ignoreTls: true, from: 'a@b.co' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await echo?.close();
  });

  const trigger = async (body: Body): Promise<string> => {
    const res = await t.api('post', '/v1/events/trigger').send(body);
    expect(res.body.status).toBe('processed');
    return res.body.transactionId as string;
  };
  const settle = (transactionIds: string[]) =>
    waitFor(
      async () =>
        (await Promise.all(transactionIds.map((id) => jobsOf(t, id)))).every(
          (rows) => rows.length > 0 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus)),
        ),
      { timeoutMs: 20_000, description: 'the triggers to settle' },
    );
  const remove = async (subscriberId: string) =>
    expect((await t.api('delete', `/v2/subscribers/${subscriberId}`)).status).toBe(200);

  /** Every row of every table of the database (the queue's tables too, when it runs on PostgreSQL) holding a needle. */
  const rowsHolding = async (needles: string[]): Promise<Found[]> => {
    const tables = await t.db.execute<{ schema: string; name: string }>(sql`
      SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`);
    const found: Found[] = [];
    for (const { schema, name } of tables.rows) {
      const rows = await t.db.execute<{ row: string }>(
        sql`SELECT x::text AS row FROM ${sql.identifier(schema)}.${sql.identifier(name)} x`,
      );
      for (const { row } of rows.rows)
        if (needles.some((needle) => row.includes(needle))) found.push({ table: `${schema}.${name}`, row });
    }
    return found;
  };

  /** What is left of a deleted subscriber: its own row, which keeps its ids and nothing else, and nothing more. */
  const expectOnlyItsRow = async (rowId: string, ids: string[], personal: string[]) => {
    const left = await rowsHolding([...ids, ...personal]);
    expect(left.map(({ table }) => table)).toEqual(['public.subscribers']);
    for (const needle of personal) expect(left[0].row).not.toContain(needle);
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, rowId));
    expect(row).toMatchObject({ deleted: true, email: null, phone: null, firstName: null, data: null, channels: [] });
  };

  const rowsOf = async (rowId: string) => ({
    messages: await t.db.select().from(messages).where(eq(messages.subscriberId, rowId)),
    preferences: await t.db.select().from(preferences).where(eq(preferences.subscriberId, rowId)),
    memberships: await t.db.select().from(topicSubscribers).where(eq(topicSubscribers.subscriberId, rowId)),
  });

  it('leaves no message, preference, membership, credential or personal field behind; a new subscriber with the id starts empty', async () => {
    const subscriber = await createSubscriber(t, {
      subscriberId: 'erin',
      firstName: 'Erin',
      email: 'erin@example.com',
      phone: '+15555550100',
      data: { plan: 'gold' },
      channels: [{ providerId: 'discord', credentials: { webhookUrl: 'https://discord.example/erin' } }],
    });
    const rowId = subscriber._id as string;
    await insertMessages(t, subscriber, [
      { channel: 'in_app', content: 'your invoice' },
      { channel: 'email', content: '<p>your invoice</p>', email: 'erin@example.com' },
    ]);
    const preference = await t.api('patch', '/v2/subscribers/erin/preferences').send({ channels: { email: false } });
    expect(preference.status).toBe(200);
    await createTopic(t, 'erasure-news');
    expect(
      (await t.api('post', '/v2/topics/erasure-news/subscriptions').send({ subscriptions: ['erin'] })).status,
    ).toBeLessThan(300);
    const before = await rowsOf(rowId);
    expect([before.messages.length, before.preferences.length, before.memberships.length]).toEqual([2, 1, 1]);

    await remove('erin');

    expect(await rowsOf(rowId)).toEqual({ messages: [], preferences: [], memberships: [] });
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, rowId));
    expect(row).toMatchObject({
      deleted: true,
      firstName: null,
      email: null,
      phone: null,
      data: null,
      channels: [],
    });
    expect(JSON.stringify(row)).not.toMatch(/erin@example|555550100|gold|discord\.example/);

    // Created again through the API: nothing of the deleted subscriber comes back.
    await createSubscriber(t, { subscriberId: 'erin', firstName: 'Another Erin' });
    const again = await t.api('get', '/v2/subscribers/erin');
    expect(again.body).toMatchObject({ subscriberId: 'erin', firstName: 'Another Erin' });
    expect(again.body.email ?? null).toBeNull();
    expect(again.body.data ?? null).toBeNull();
    expect(again.body.channels ?? []).toEqual([]);
    const feed = await t.api('get', '/v1/subscribers/erin/notifications/feed');
    expect(feed.body.data).toEqual([]);
    const members = await t.api('get', '/v2/topics/erasure-news/subscriptions');
    expect(members.body.data).toEqual([]);
  });

  it('leaves nothing of its activity in any table but its ids in its own row; the other recipients keep theirs', async () => {
    const marker = `marker-${suffix}`;
    const subject = {
      subscriberId: `erasure-subject-${suffix}`,
      firstName: 'Subject',
      email: `subject-${suffix}@example.com`,
      phone: '+15555550177',
    };
    const other = { subscriberId: `erasure-other-${suffix}`, email: `other-${suffix}@example.com` };
    const subjectRow = await createSubscriber(t, {
      ...subject,
      data: { secret: marker },
      channels: [{ providerId: 'discord', credentials: { webhookUrl: `https://discord.example/${marker}` } }],
    });
    const otherRow = await createSubscriber(t, other);
    const topicKey = `erasure-topic-${suffix}`;
    await createTopic(t, topicKey);
    const subscribed = await t
      .api('post', `/v2/topics/${topicKey}/subscriptions`)
      .send({ subscriptions: [subject.subscriberId, other.subscriberId] });
    expect(subscribed.status).toBeLessThan(300);
    const preference = await t
      .api('patch', `/v2/subscribers/${subject.subscriberId}/preferences`)
      .send({ channels: { sms: false } });
    expect(preference.status).toBe(200);

    const activity = await createWorkflow(t, {
      steps: [
        inApp('Hello {{subscriber.firstName}} {{payload.marker}}'),
        step({
          template: { type: 'email', subject: 'For {{subscriber.email}}', content: '<p>{{payload.marker}}</p>' },
        }),
        step({
          name: 'lookup',
          template: { type: 'http_request' },
          metadata: {
            url: `${echo.url}/lookup`,
            method: 'POST',
            body: [
              { key: 'email', value: '{{subscriber.email}}' },
              { key: 'phone', value: '{{subscriber.phone}}' },
              { key: 'marker', value: '{{payload.marker}}' },
            ],
          },
        }),
      ],
    });
    const digest = await createWorkflow(t, {
      steps: [
        step({ template: { type: 'digest' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } }),
        inApp('{{step.total_count}} new'),
      ],
    });
    const news = await createWorkflow(t, { steps: [inApp('news')] });
    const alone = [
      await trigger({ name: activity.identifier, to: subject.subscriberId, payload: { marker } }),
      await trigger({ name: digest.identifier, to: subject.subscriberId, payload: { marker } }),
      await trigger({ name: digest.identifier, to: subject.subscriberId, payload: { marker } }),
    ];
    // Named inline beside another recipient, and as the actor: the event stays for the other one.
    const shared = await trigger({
      name: activity.identifier,
      to: [{ ...subject, data: { secret: marker } }, other],
      actor: { subscriberId: subject.subscriberId, email: subject.email },
      payload: { note: 'for both' },
    });
    const topical = await trigger({
      name: news.identifier,
      to: [{ type: 'Topic', topicKey, exclude: [subject.subscriberId] }],
      actor: subject.subscriberId,
    });
    await settle([...alone, shared, topical]);
    const digestJobs = (await Promise.all(alone.slice(1).map((id) => jobsOf(t, id)))).map((rows) => rows[0].status);
    expect(digestJobs.sort()).toEqual(['completed', 'merged']);
    expect(smtp.mails.some((mail) => mail.to.includes(subject.email))).toBe(true);

    const ids = [subjectRow._id as string, subject.subscriberId];
    const personal = [subject.email, subject.phone, marker];
    const tablesBefore = new Set((await rowsHolding([...ids, ...personal])).map(({ table }) => table));
    for (const table of [
      'subscribers',
      'notifications',
      'jobs',
      'execution_details',
      'messages',
      'trigger_events',
      'preferences',
      'topic_subscribers',
    ])
      expect(tablesBefore).toContain(`public.${table}`);
    const otherRowId = otherRow._id as string;
    const othersActivity = async () => ({
      notifications: await t.db.select().from(notifications).where(eq(notifications.subscriberId, otherRowId)),
      jobs: await t.db.select().from(jobs).where(eq(jobs.subscriberId, otherRowId)),
      details: await t.db.select().from(executionDetails).where(eq(executionDetails.subscriberId, otherRowId)),
      messages: await t.db.select().from(messages).where(eq(messages.subscriberId, otherRowId)),
    });
    const othersBefore = await othersActivity();
    expect(othersBefore.notifications).toHaveLength(2);
    expect(othersBefore.messages.map((message) => message.channel).sort()).toEqual(['email', 'in_app', 'in_app']);

    await remove(subject.subscriberId);

    await expectOnlyItsRow(subjectRow._id as string, ids, personal);
    expect(await othersActivity()).toEqual(othersBefore);
    const events = async (transactionId: string) =>
      t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, transactionId));
    for (const transactionId of alone) expect(await events(transactionId)).toEqual([]);
    const [sharedEvent] = await events(shared);
    expect(sharedEvent.request).toMatchObject({ to: [other], payload: { note: 'for both' } });
    expect(sharedEvent.request).not.toHaveProperty('actor');
    const [topicEvent] = await events(topical);
    expect(topicEvent.request.to).toEqual([{ type: 'Topic', topicKey, exclude: [] }]);
    expect(topicEvent.request).not.toHaveProperty('actor');
    const feed = await t.api('get', `/v1/notifications?transactionId=${shared}`);
    expect(feed.body.data.map((item: Body) => (item.subscriber as Body).subscriberId)).toEqual([other.subscriberId]);
  });

  it('a delayed step or an open digest of a deleted subscriber wakes to nothing: no message, no mail, no row', async () => {
    const subject = { subscriberId: `erasure-delayed-${suffix}`, email: `delayed-${suffix}@example.com` };
    const subjectRow = await createSubscriber(t, subject);
    const late = [inApp('late'), step({ template: { type: 'email', subject: 'late', content: '<p>late</p>' } })];
    const delayed = await createWorkflow(t, {
      steps: [
        step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } }),
        ...late,
      ],
    });
    const digest = await createWorkflow(t, {
      steps: [
        step({ template: { type: 'digest' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } }),
        ...late,
      ],
    });
    const transactionIds = [
      await trigger({ name: delayed.identifier, to: subject.subscriberId }),
      await trigger({ name: digest.identifier, to: subject.subscriberId }),
    ];
    await waitFor(
      async () =>
        (await Promise.all(transactionIds.map((id) => jobsOf(t, id)))).every((rows) => rows[0]?.status === 'delayed'),
      { description: 'the delay and the digest window to start' },
    );

    await remove(subject.subscriberId);
    // Past the delay and the window: their queue entries have come and found no job to run.
    await sleep(2_500);

    for (const transactionId of transactionIds) {
      expect(await jobsOf(t, transactionId)).toEqual([]);
      expect(await messagesOf(t, transactionId)).toEqual([]);
    }
    expect(smtp.mails.filter((mail) => mail.to.includes(subject.email))).toEqual([]);
    await expectOnlyItsRow(subjectRow._id as string, [subjectRow._id as string, subject.subscriberId], [subject.email]);
  });

  it('waits for the activity being written in its environment and erases it; a fan-out chunk after it writes nothing', async () => {
    const subject = await createSubscriber(t, { subscriberId: `erasure-inflight-${suffix}` });
    const rowId = subject._id as string;
    const workflow = await createWorkflow(t, { steps: [inApp('in flight')] });
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    const ours = { ...scope, workflowId: workflow.id, transactionId: `tx-inflight-${suffix}` };
    let deleted: Promise<Response> | undefined;
    let answered = false;
    // A transaction standing for a fan-out chunk or a batch of step outcomes of the environment.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT ${activityWriteLock(t.environment.id)}`);
      deleted = t.api('delete', `/v2/subscribers/${subject.subscriberId as string}`).then((res) => {
        answered = true;
        return res;
      });
      await sleep(300);
      expect(answered).toBe(false);
      const [notification] = await t.app
        .get(NotificationRepository)
        .insertMany([{ ...ours, id: newId(), eventId: newId(), subscriberId: rowId }], tx);
      await t.app.get(MessageRepository).insertMany(
        [
          {
            ...ours,
            id: newId(),
            notificationId: notification.id,
            jobId: newId(),
            subscriberId: rowId,
            channel: 'in_app',
            content: 'in flight',
          },
        ],
        tx,
      );
    });
    expect((await deleted!).status).toBe(200);
    expect(await t.db.select().from(notifications).where(eq(notifications.subscriberId, rowId))).toEqual([]);
    expect((await rowsOf(rowId)).messages).toEqual([]);

    // A chunk whose recipients were read before the delete: its notification insert skips the subscriber.
    const written = await t.app
      .get(NotificationRepository)
      .insertBatch([{ id: newId(), subscriberId: rowId }], { ...ours, eventId: newId() });
    expect(written).toEqual([]);
  });
  it("an API write of the subscriber's preferences or topic membership while its delete commits writes nothing", async () => {
    const subject = await createSubscriber(t, { subscriberId: `erasure-racing-${suffix}` });
    const rowId = subject._id as string;
    const id = subject.subscriberId as string;
    await createTopic(t, `racing-news-${suffix}`);
    let preference: Promise<Response> | undefined;
    let membership: Promise<Response> | undefined;
    // The delete's transaction, held open while the two writes arrive. They read the subscriber as it
    // was before the delete, so without the erasure lock they would write rows its erasure never sees.
    await t.db.transaction(async (tx) => {
      expect(await t.app.get(SubscriberRepository).softDelete(t.environment.id, id, tx)).toBe(rowId);
      preference = t
        .api('patch', `/v2/subscribers/${id}/preferences`)
        .send({ channels: { email: false } })
        .then();
      membership = t
        .api('post', `/v2/topics/racing-news-${suffix}/subscriptions`)
        .send({ subscriptions: [id] })
        .then();
      await sleep(300);
    });
    expect((await preference!).status).toBe(404);
    const subscribed = await membership!;
    expect(subscribed.status).toBeLessThan(300);
    expect(subscribed.body).toMatchObject({
      data: [],
      meta: { totalCount: 1, successful: 0, failed: 1 },
      errors: [{ subscriberId: id, code: 'SUBSCRIBER_NOT_FOUND' }],
    });
    expect(await rowsOf(rowId)).toEqual({ messages: [], preferences: [], memberships: [] });
  });
});
