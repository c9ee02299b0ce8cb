import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { AdjustableClock } from '#common';
import { messages } from '#dal';
import { SESSION_TOKEN_TTL_SECONDS } from '#api/inbox/session-token.js';
import { RecoverySweeper } from '#event-processing';
import { createSubscriber } from './support/builders.js';
import { createWorkflow, inApp, messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { connected, openInboxSocket, sessionTokenFor, type RecordedSocket } from './support/inbox-socket.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';
import { waitFor } from './support/wait.js';

/** The unread counts of a subscriber with nothing unread. */
const NOTHING_UNREAD = { total: 0, severity: { high: 0, medium: 0, low: 0, none: 0 } };

describe('realtime inbox socket', () => {
  let t: TestApp;
  let url: string;
  let workflowId: string;
  const open: RecordedSocket[] = [];

  const tokenFor = (subscriber: Body) => sessionTokenFor(TEST_ENCRYPTION_KEY, t.clock, subscriber);
  const socketFor = async (subscriber: Body) => {
    const recorded = openInboxSocket(url, tokenFor(subscriber));
    open.push(recorded);
    await connected(recorded);
    return recorded;
  };
  /** One in-app message to the subscriber, waited for until its jobs have ended. */
  const deliverTo = (subscriber: Body) =>
    triggerAndSettle(t, { name: workflowId, to: { subscriberId: subscriber.subscriberId }, payload: {} });
  const subscriberNow = async (subscriberId: string) =>
    (await t.api('get', `/v2/subscribers/${subscriberId}`)).body as Body;

  beforeAll(async () => {
    t = await startTestApp({ env: { INBOX_ALLOWED_ORIGINS: 'https://app.example.com' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = await t.app.getUrl();
    const workflow = await createWorkflow(t, {
      steps: [
        inApp('Hello {{subscriber.firstName}}', {
          template: {
            type: 'in_app',
            content: 'Hello {{subscriber.firstName}}',
            subject: 'Greeting',
            cta: { type: 'redirect', data: { url: '/welcome' } },
          },
        }),
      ],
    });
    workflowId = workflow.identifier;
  });

  afterAll(async () => {
    for (const recorded of open) recorded.close();
    await t.close();
  });

  it('pushes a delivered in-app message with the fields @novu/js maps, then the counts after a read', async () => {
    const subscriber = await createSubscriber(t, { firstName: 'Ada' });
    const inbox = await socketFor(subscriber);
    const { transactionId } = await deliverTo(subscriber);
    const [row] = await messagesOf(t, transactionId);

    const { message } = (await inbox.next('notification_received')) as { message: Body };
    expect(message).toMatchObject({
      _id: row.id,
      transactionId,
      content: 'Hello Ada',
      subject: 'Greeting',
      channel: 'in_app',
      read: false,
      seen: false,
      archived: false,
      cta: { type: 'redirect', data: { url: '/welcome' } },
      tags: [],
      severity: 'none',
      subscriber: { _id: subscriber._id, subscriberId: subscriber.subscriberId, firstName: 'Ada' },
    });
    // Published from the rows the worker wrote, not read back: they must be what was stored.
    expect(message).toMatchObject({
      createdAt: row.createdAt.toISOString(),
      deliveredAt: row.deliveredAt,
      _notificationId: row.notificationId,
      _templateId: row.workflowId,
      templateIdentifier: row.templateIdentifier,
      _environmentId: row.environmentId,
      _organizationId: row.organizationId,
    });
    expect(message.deliveredAt).toHaveLength(1);
    expect(message.subscriber).not.toHaveProperty('channels');
    expect(await inbox.next('unseen_count_changed')).toEqual({ unseenCount: 1, hasMore: false });
    expect(await inbox.next('unread_count_changed')).toEqual({
      unreadCount: 1,
      hasMore: false,
      counts: { total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } },
    });

    const read = await t.api('patch', `/v2/subscribers/${subscriber.subscriberId}/notifications/${row.id}/read`);
    expect(read.status).toBe(200);
    expect(await inbox.next('unseen_count_changed')).toEqual({ unseenCount: 0, hasMore: false });
    expect((await inbox.next('unread_count_changed')).counts).toEqual(NOTHING_UNREAD);
  });

  it("sends the new counts to an online subscriber whose messages are deleted through the API key's /v1/messages", async () => {
    const subscriber = await createSubscriber(t, { firstName: 'Grace' });
    const inbox = await socketFor(subscriber);
    const { transactionId } = await deliverTo(subscriber);
    expect(await inbox.next('unseen_count_changed')).toEqual({ unseenCount: 1, hasMore: false });
    await inbox.next('unread_count_changed');

    expect((await t.api('delete', `/v1/messages/transaction/${transactionId}`)).status).toBe(204);
    expect(await inbox.next('unseen_count_changed')).toEqual({ unseenCount: 0, hasMore: false });
    expect((await inbox.next('unread_count_changed')).counts).toEqual(NOTHING_UNREAD);
  });

  it('refuses a missing, forged or foreign-key token at the handshake, and a browser origin not allowed', async () => {
    const subscriber = await createSubscriber(t);
    const good = tokenFor(subscriber);
    const forged = sessionTokenFor('b'.repeat(64), t.clock, subscriber);
    for (const token of ['', 'not-a-token', `${good}x`, forged]) {
      const recorded = openInboxSocket(url, token);
      open.push(recorded);
      await expect(connected(recorded)).rejects.toThrow(/Unauthorized/);
    }
    const wrongOrigin = openInboxSocket(url, good, { origin: 'https://evil.example.com' });
    open.push(wrongOrigin);
    await expect(connected(wrongOrigin)).rejects.toThrow();
    const allowedOrigin = openInboxSocket(url, good, { origin: 'https://app.example.com' });
    open.push(allowedOrigin);
    await connected(allowedOrigin);
    allowedOrigin.close();
    // The service still answers after the refusals.
    expect((await t.http.get('/health')).status).toBeLessThan(500);
  });

  it("never delivers one subscriber's events to another subscriber's socket", async () => {
    const alice = await createSubscriber(t, { firstName: 'Alice' });
    const bob = await createSubscriber(t, { firstName: 'Bob' });
    const aliceInbox = await socketFor(alice);
    const bobInbox = await socketFor(bob);
    await deliverTo(alice);
    const { message } = (await aliceInbox.next('notification_received')) as { message: Body };
    expect(message.content).toBe('Hello Alice');
    await aliceInbox.next('unread_count_changed');
    await t.api('post', `/v2/subscribers/${alice.subscriberId}/notifications/read`).send({});
    await deliverTo(bob);
    const forBob = (await bobInbox.next('notification_received')) as { message: Body };
    expect(forBob.message.content).toBe('Hello Bob');
    await bobInbox.next('unread_count_changed');
    expect(bobInbox.events.filter((event) => event.name === 'notification_received')).toHaveLength(1);
    const bobMessages = bobInbox.events.flatMap((event) =>
      event.name === 'notification_received' ? [(event.payload.message as Body).subscriber as Body] : [],
    );
    expect(bobMessages.every((owner) => owner._id === bob._id)).toBe(true);
  });

  it('sets isOnline and lastOnlineAt on connect and after the last socket closes', async () => {
    const subscriber = await createSubscriber(t);
    expect((await subscriberNow(subscriber.subscriberId as string)).isOnline).toBeFalsy();
    const first = await socketFor(subscriber);
    const second = await socketFor(subscriber);
    await waitFor(async () => (await subscriberNow(subscriber.subscriberId as string)).isOnline === true, {
      description: 'isOnline true',
    });
    const onlineAt = (await subscriberNow(subscriber.subscriberId as string)).lastOnlineAt as string;
    expect(Date.parse(onlineAt)).toBeGreaterThan(Date.now() - 60_000);

    first.close();
    // One socket is still open: the subscriber stays online.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await subscriberNow(subscriber.subscriberId as string)).isOnline).toBe(true);
    second.close();
    await waitFor(async () => (await subscriberNow(subscriber.subscriberId as string)).isOnline === false, {
      description: 'isOnline false after the last disconnect',
    });
    const offlineAt = (await subscriberNow(subscriber.subscriberId as string)).lastOnlineAt as string;
    expect(Date.parse(offlineAt)).toBeGreaterThanOrEqual(Date.parse(onlineAt));
  });

  it('pushes the counts after an archive and a snooze, and the message again when it wakes', async () => {
    const subscriber = await createSubscriber(t);
    const inbox = await socketFor(subscriber);
    await deliverTo(subscriber);
    await deliverTo(subscriber);
    const first = ((await inbox.next('notification_received')) as { message: Body }).message._id as string;
    const second = ((await inbox.next('notification_received')) as { message: Body }).message._id as string;
    await waitFor(() => inbox.events.filter((event) => event.name === 'unread_count_changed').length >= 2);
    inbox.skipReceived();
    const notifications = `/v2/subscribers/${subscriber.subscriberId}/notifications`;

    expect((await t.api('patch', `${notifications}/${first}/archive`)).status).toBe(200);
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 1 });

    const snoozeUntil = new Date(Date.now() + 1_500).toISOString();
    expect((await t.api('patch', `${notifications}/${second}/snooze`).send({ snoozeUntil })).status).toBe(200);
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 0 });
    const woken = (await inbox.next('notification_received', 15_000)) as { message: Body };
    expect(woken.message).toMatchObject({ _id: second });
    expect(woken.message.snoozedUntil).toBeUndefined();
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 1 });
  });

  it('pushes the counts after DELETE /v1/messages/:id, and a snooze whose wake-up was lost comes back through the sweeper', async () => {
    const subscriber = await createSubscriber(t);
    const inbox = await socketFor(subscriber);
    await deliverTo(subscriber);
    await deliverTo(subscriber);
    const first = ((await inbox.next('notification_received')) as { message: Body }).message._id as string;
    const second = ((await inbox.next('notification_received')) as { message: Body }).message._id as string;
    await waitFor(() => inbox.events.filter((event) => event.name === 'unread_count_changed').length >= 2);
    inbox.skipReceived();

    expect((await t.api('delete', `/v1/messages/${first}`)).status).toBe(200);
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 1 });

    // Snoozed for a day, then its time moved into the past as if the queued wake-up had been lost.
    const snoozeUntil = new Date(Date.now() + 86_400_000).toISOString();
    const notifications = `/v2/subscribers/${subscriber.subscriberId}/notifications`;
    expect((await t.api('patch', `${notifications}/${second}/snooze`).send({ snoozeUntil })).status).toBe(200);
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 0 });
    await t.db
      .update(messages)
      .set({ snoozedUntil: new Date(Date.now() - 60_000) })
      .where(eq(messages.id, second));
    await t.app.get(RecoverySweeper).sweep();
    expect(((await inbox.next('notification_received')) as { message: Body }).message._id).toBe(second);
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 1 });
  });

  it('refuses a subscriber more sockets on one process than a browser would open', async () => {
    const subscriber = await createSubscriber(t);
    const many = await Promise.all(Array.from({ length: 50 }, () => socketFor(subscriber)));
    const oneMore = openInboxSocket(url, tokenFor(subscriber));
    open.push(oneMore);
    await expect(connected(oneMore)).rejects.toThrow(/Too many open sockets/);
    many[0].close();
    await waitFor(() => !many[0].socket.connected);
    const again = openInboxSocket(url, tokenFor(subscriber));
    open.push(again);
    await connected(again);
  });

  it('closes an open socket when its session token expires', async () => {
    const subscriber = await createSubscriber(t);
    const issuedEarlier = new AdjustableClock();
    issuedEarlier.set(new Date(Date.now() - SESSION_TOKEN_TTL_SECONDS * 1000 + 1_500));
    const token = sessionTokenFor(TEST_ENCRYPTION_KEY, issuedEarlier, subscriber);
    const inbox = openInboxSocket(url, token);
    open.push(inbox);
    await connected(inbox);
    const closed = new Promise<string>((resolve) => inbox.socket.once('disconnect', (reason) => resolve(reason)));
    expect(await closed).toBe('io server disconnect');
  });
});
