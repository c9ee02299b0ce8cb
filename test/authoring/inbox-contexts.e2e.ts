import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu, type Notification, type NovuOptions } from '@novu/js';
import { eq } from 'drizzle-orm';
import { messages } from '#dal';
import { createInboxWorkflow, postSession, startInboxApp, type InboxApp } from '../inbox/inbox-app.js';
import { triggerAndSettle } from '../support/engine-fixtures.js';
import { sleep, waitFor } from '../support/wait.js';

type SessionResult = { data?: Record<string, unknown>; error?: unknown };

const hmac = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');

/** The inbox of @novu/js opened for a subscriber in a context, as <Inbox context={...} /> opens it. */
describe('inbox contexts through @novu/js', () => {
  let app: InboxApp;
  const clients: Novu[] = [];

  async function openInbox(
    subscriberId: string,
    options: Pick<NovuOptions, 'context' | 'contextHash' | 'subscriberHash'> = {},
  ): Promise<{ novu: Novu; session: SessionResult }> {
    const novu = new Novu({
      applicationIdentifier: app.applicationIdentifier,
      subscriber: { subscriberId },
      apiUrl: app.url,
      socketUrl: app.url,
      useCache: false,
      ...options,
    });
    clients.push(novu);
    const session = await new Promise<SessionResult>((resolve) => {
      novu.on('session.initialize.resolved', (event) => resolve(event as SessionResult));
    });
    return { novu, session };
  }

  async function deliver(subscriberId: string, n: number, context?: Record<string, unknown>): Promise<string> {
    const { transactionId } = await triggerAndSettle(app.t, {
      name: 'ctx-invoice',
      to: subscriberId,
      payload: { n },
      ...(context ? { context } : {}),
    });
    const [row] = await app.t.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.transactionId, transactionId));
    return row.id;
  }

  const listedIds = async (novu: Novu) => {
    const { data, error } = await novu.notifications.list({ limit: 50 });
    expect(error).toBeUndefined();
    return data!.notifications.map((notification) => notification.id).sort();
  };
  const unreadCount = async (novu: Novu) => {
    const { data, error } = await novu.notifications.count({ read: false });
    expect(error).toBeUndefined();
    return data!.count;
  };

  let acmeMessage: string;
  let globexMessage: string;
  let plainMessage: string;

  beforeAll(async () => {
    app = await startInboxApp();
    await createInboxWorkflow(app.t, 'ctx-invoice');
    acmeMessage = await deliver('ctx-reader', 1, { tenant: 'acme' });
    globexMessage = await deliver('ctx-reader', 2, { tenant: { id: 'globex', data: { name: 'Globex' } } });
    plainMessage = await deliver('ctx-reader', 3);
  });
  afterAll(async () => {
    for (const novu of clients) await novu.socket.disconnect();
    await app?.close();
  });

  it('a session opened for tenant:acme lists and counts only the acme message; globex only the globex one', async () => {
    const acme = await openInbox('ctx-reader', { context: { tenant: 'acme' } });
    expect(acme.session.error).toBeUndefined();
    expect(acme.session.data).toMatchObject({ contextKeys: ['tenant:acme'], totalUnreadCount: 1 });
    expect(await listedIds(acme.novu)).toEqual([acmeMessage]);
    expect(await unreadCount(acme.novu)).toBe(1);

    // The object form names the same context: the same messages.
    const globex = await openInbox('ctx-reader', { context: { tenant: { id: 'globex' } } });
    expect(globex.session.data).toMatchObject({ contextKeys: ['tenant:globex'] });
    expect(await listedIds(globex.novu)).toEqual([globexMessage]);
    expect(await unreadCount(globex.novu)).toBe(1);

    // A message of another context is not found by id either, for a change or a delete.
    const token = acme.session.data!.token as string;
    const byId = (method: string, path: string) =>
      fetch(`${app.url}/v1/inbox/notifications/${globexMessage}/${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}` },
      });
    expect((await byId('PATCH', 'read')).status).toBe(404);
    expect((await byId('DELETE', 'delete')).status).toBe(404);
    expect(await listedIds(globex.novu)).toEqual([globexMessage]);

    // A read through the acme session leaves the globex message unread.
    const readAll = await acme.novu.notifications.readAll();
    expect(readAll.error).toBeUndefined();
    expect(await unreadCount(acme.novu)).toBe(0);
    expect(await unreadCount(globex.novu)).toBe(1);
  });

  it('a session without context sees only the messages sent without one; a wider context matches nothing', async () => {
    const plain = await openInbox('ctx-reader');
    expect(plain.session.data).toMatchObject({ contextKeys: [] });
    expect(await listedIds(plain.novu)).toEqual([plainMessage]);
    const wider = await openInbox('ctx-reader', { context: { tenant: 'acme', app: 'jira' } });
    expect(await listedIds(wider.novu)).toEqual([]);
    expect(await unreadCount(wider.novu)).toBe(0);
  });

  it("the socket brings a delivery only to the sessions of the message's context", async () => {
    const acme = await openInbox('ctx-live', { context: { tenant: 'acme' } });
    const globex = await openInbox('ctx-live', { context: { tenant: 'globex' } });
    const heard = { acme: [] as Notification[], globex: [] as Notification[] };
    const acmeUnread: number[] = [];
    const globexUnread: number[] = [];
    const ready = [acme, globex].map(
      ({ novu }) => new Promise<void>((resolve) => novu.on('socket.connect.resolved', () => resolve())),
    );
    acme.novu.on('notifications.notification_received', (event) => heard.acme.push(event.result));
    globex.novu.on('notifications.notification_received', (event) => heard.globex.push(event.result));
    acme.novu.on('notifications.unread_count_changed', (event) => acmeUnread.push(event.result.total));
    globex.novu.on('notifications.unread_count_changed', (event) => globexUnread.push(event.result.total));
    await Promise.all(ready);
    await waitFor(async () => (await app.t.api('get', '/v2/subscribers/ctx-live')).body.isOnline === true);

    const id = await deliver('ctx-live', 4, { tenant: 'acme' });
    await waitFor(() => heard.acme.length === 1 && acmeUnread.length === 1, { description: 'the acme socket' });
    expect(heard.acme[0].id).toBe(id);
    expect(acmeUnread).toEqual([1]);
    // Time for a wrongly routed event to arrive.
    await sleep(300);
    expect(heard.globex).toEqual([]);
    expect(globexUnread).toEqual([]);
  });

  describe('where HMAC is required', () => {
    const context = { tenant: 'acme' };
    beforeAll(async () => {
      const res = await app.t
        .api('post', '/v1/integrations')
        .send({ providerId: 'novu', channel: 'in_app', credentials: { hmac: true }, active: true });
      expect(res.status).toBe(201);
    });

    it('a session whose context is not signed, or signed for another context, is refused', async () => {
      const subscriberHash = hmac(app.t.apiKey, 'ctx-reader');
      const unsigned = await postSession(app, { subscriber: { subscriberId: 'ctx-reader' }, subscriberHash, context });
      expect(unsigned.status).toBe(401);
      expect(((await unsigned.json()) as { message: string }).message).toMatch(/contextHash/);

      const otherHash = hmac(app.t.apiKey, '{"tenant":"globex"}');
      const forged = await postSession(app, {
        subscriber: { subscriberId: 'ctx-reader' },
        subscriberHash,
        context,
        contextHash: otherHash,
      });
      expect(forged.status).toBe(401);

      // Through the client too: the session fails and nothing can be listed.
      const refused = await openInbox('ctx-reader', { context, subscriberHash });
      expect(refused.session.error).toBeDefined();
    });

    it('a context signed over its canonical JSON opens the session of that context', async () => {
      const subscriberHash = hmac(app.t.apiKey, 'ctx-reader');
      const rich = { tenant: { id: 'globex', data: { name: 'Globex', b: 1 } } };
      const contextHash = hmac(app.t.apiKey, '{"tenant":{"data":{"b":1,"name":"Globex"},"id":"globex"}}');
      const signed = await openInbox('ctx-reader', { context: rich, contextHash, subscriberHash });
      expect(signed.session.error).toBeUndefined();
      expect(signed.session.data).toMatchObject({ contextKeys: ['tenant:globex'] });
      expect(await listedIds(signed.novu)).toEqual([globexMessage]);
    });
  });
});
