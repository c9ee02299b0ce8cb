import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { messages } from '#dal';
import { createIntegration, createSubscriber, insertMessages } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

describe('spec operations 1-3: credentials, online status, mark-as', () => {
  let t: TestApp;
  let foreign: { apiKey: string };
  let slack: Body;
  let fcm: Body;

  beforeAll(async () => {
    t = await startTestApp();
    foreign = await t.createForeignKey();
    slack = await createIntegration(t, { providerId: 'slack', channel: 'chat', identifier: 'slack-main' });
    fcm = await createIntegration(t, { providerId: 'fcm', channel: 'push', identifier: 'fcm-main' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const credentials = (subscriberId: string, body: unknown, key?: string) =>
    t.api('patch', `/v1/subscribers/${subscriberId}/credentials`, key).send(body as object);

  describe('PATCH /v1/subscribers/{id}/credentials', () => {
    it('appends a new channel entry bound to the integration (200, full subscriber)', async () => {
      const subscriber = await createSubscriber(t, { subscriberId: 'cred-new', email: 'c@example.com' });
      const res = await credentials('cred-new', {
        providerId: 'slack',
        credentials: { webhookUrl: 'https://hooks.example/1' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        _id: subscriber._id,
        subscriberId: 'cred-new',
        email: 'c@example.com',
        __v: subscriber.__v + 1,
      });
      expect(res.body.channels).toEqual([
        { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/1' }, _integrationId: slack._id },
      ]);
    });

    it('a second call merges credentials into the same entry; __v increments on each change', async () => {
      await createSubscriber(t, { subscriberId: 'cred-merge' });
      const first = await credentials('cred-merge', {
        providerId: 'slack',
        credentials: { webhookUrl: 'https://hooks.example/a' },
      });
      const second = await credentials('cred-merge', { providerId: 'slack', credentials: { channel: 'general' } });
      expect(second.status).toBe(200);
      expect(second.body.channels).toEqual([
        {
          providerId: 'slack',
          credentials: { webhookUrl: 'https://hooks.example/a', channel: 'general' },
          _integrationId: slack._id,
        },
      ]);
      expect(second.body.__v).toBe(first.body.__v + 1);
      const unchanged = await credentials('cred-merge', { providerId: 'slack', credentials: { channel: 'general' } });
      expect(unchanged.body.__v).toBe(second.body.__v);
    });

    it('given deviceTokens replace the list (de-duplicated); absent ones keep it; [] clears', async () => {
      await createSubscriber(t, { subscriberId: 'cred-push' });
      const tokens = (res: Body) =>
        res.body.channels.find((c: Body) => c.providerId === 'fcm').credentials.deviceTokens;
      const first = await credentials('cred-push', {
        providerId: 'fcm',
        credentials: { deviceTokens: ['a', 'b', 'a'] },
      });
      expect(tokens(first)).toEqual(['a', 'b']);
      const replaced = await credentials('cred-push', { providerId: 'fcm', credentials: { deviceTokens: ['c'] } });
      expect(tokens(replaced)).toEqual(['c']);
      const kept = await credentials('cred-push', { providerId: 'fcm', credentials: { title: 'phone' } });
      expect(kept.body.channels).toEqual([
        { providerId: 'fcm', credentials: { deviceTokens: ['c'], title: 'phone' }, _integrationId: fcm._id },
      ]);
      const cleared = await credentials('cred-push', { providerId: 'fcm', credentials: { deviceTokens: [] } });
      expect(tokens(cleared)).toEqual([]);
      expect(cleared.body.channels).toHaveLength(1);
    });

    it('more than 100 device tokens → 422', async () => {
      await createSubscriber(t, { subscriberId: 'cred-many' });
      const deviceTokens = Array.from({ length: 101 }, (_, i) => `token-${i}`);
      const res = await credentials('cred-many', { providerId: 'fcm', credentials: { deviceTokens } });
      expect(res.status).toBe(422);
      expect(res.body.errors['credentials.deviceTokens']).toBeDefined();
      const exactly100 = await credentials('cred-many', {
        providerId: 'fcm',
        credentials: { deviceTokens: deviceTokens.slice(0, 100) },
      });
      expect(exactly100.status).toBe(200);
    });

    it('integrationIdentifier picks among two integrations of one provider', async () => {
      const second = await createIntegration(t, { providerId: 'slack', channel: 'chat', identifier: 'slack-second' });
      await createSubscriber(t, { subscriberId: 'cred-pick' });
      await credentials('cred-pick', {
        providerId: 'slack',
        integrationIdentifier: 'slack-main',
        credentials: { webhookUrl: 'https://main' },
      });
      const res = await credentials('cred-pick', {
        providerId: 'slack',
        integrationIdentifier: 'slack-second',
        credentials: { webhookUrl: 'https://second' },
      });
      expect(res.status).toBe(200);
      expect(res.body.channels).toEqual([
        {
          providerId: 'slack',
          integrationIdentifier: 'slack-main',
          credentials: { webhookUrl: 'https://main' },
          _integrationId: slack._id,
        },
        {
          providerId: 'slack',
          integrationIdentifier: 'slack-second',
          credentials: { webhookUrl: 'https://second' },
          _integrationId: second._id,
        },
      ]);
      const unknown = await credentials('cred-pick', {
        providerId: 'slack',
        integrationIdentifier: 'slack-none',
        credentials: {},
      });
      expect(unknown.status).toBe(400);
    });

    it('no active integration of the provider → 400 naming the provider', async () => {
      await createSubscriber(t, { subscriberId: 'cred-none' });
      const res = await credentials('cred-none', { providerId: 'discord', credentials: { webhookUrl: 'https://d' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('discord');
      await createIntegration(t, { providerId: 'msteams', channel: 'chat', active: false });
      expect((await credentials('cred-none', { providerId: 'msteams', credentials: {} })).status).toBe(400);
      expect((await t.api('get', '/v2/subscribers/cred-none')).body.channels).toEqual([]);
    });

    it('422 on malformed bodies: unknown providerId, missing credentials, bad token types', async () => {
      await createSubscriber(t, { subscriberId: 'cred-422' });
      const cases: Array<[unknown, string]> = [
        [{ providerId: 'carrier-pigeon', credentials: {} }, 'providerId'],
        [{ providerId: 'sendgrid', credentials: {} }, 'providerId'],
        [{ credentials: {} }, 'providerId'],
        [{ providerId: 'slack' }, 'credentials'],
        [{ providerId: 'slack', credentials: 'x' }, 'credentials'],
        [{ providerId: 'fcm', credentials: { deviceTokens: 'abc' } }, 'credentials.deviceTokens'],
        [{ providerId: 'fcm', credentials: { deviceTokens: [1, 2] } }, 'credentials.deviceTokens'],
        [{ providerId: 'slack', credentials: { webhookUrl: 5 } }, 'credentials.webhookUrl'],
      ];
      for (const [body, field] of cases) {
        const res = await credentials('cred-422', body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
    });

    it('unknown subscriber → 404; another environment → 404; no key → 401', async () => {
      await createSubscriber(t, { subscriberId: 'cred-iso' });
      const body = { providerId: 'slack', credentials: { webhookUrl: 'https://x' } };
      expect((await credentials('nobody', body)).status).toBe(404);
      expect((await credentials('cred-iso', body, foreign.apiKey)).status).toBe(404);
      expect((await t.http.patch('/v1/subscribers/cred-iso/credentials').send(body)).status).toBe(401);
      await t.api('delete', '/v2/subscribers/cred-iso');
      expect((await credentials('cred-iso', body)).status).toBe(404);
    });
  });

  describe('PATCH /v1/subscribers/{id}/online-status', () => {
    it('sets isOnline true and false, each with lastOnlineAt = now, __v increments', async () => {
      const subscriber = await createSubscriber(t, { subscriberId: 'online' });
      t.clock.set(new Date('2030-01-02T03:04:05.000Z'));
      const on = await t.api('patch', '/v1/subscribers/online/online-status').send({ isOnline: true });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({
        _id: subscriber._id,
        subscriberId: 'online',
        isOnline: true,
        __v: subscriber.__v + 1,
      });
      expect(new Date(on.body.lastOnlineAt).getTime()).toBeGreaterThanOrEqual(Date.parse('2030-01-02T03:04:05.000Z'));
      expect(new Date(on.body.lastOnlineAt).getTime()).toBeLessThan(Date.parse('2030-01-02T03:05:05.000Z'));
      t.clock.set(new Date('2030-02-01T00:00:00.000Z'));
      const off = await t.api('patch', '/v1/subscribers/online/online-status').send({ isOnline: false });
      expect(off.body).toMatchObject({ isOnline: false, __v: subscriber.__v + 2 });
      expect(off.body.lastOnlineAt.startsWith('2030-02-01T00:00')).toBe(true);
      t.clock.reset();
      expect((await t.api('get', '/v2/subscribers/online')).body).toMatchObject({
        isOnline: false,
        lastOnlineAt: off.body.lastOnlineAt,
      });
    });

    it('missing or non-boolean isOnline → 422', async () => {
      await createSubscriber(t, { subscriberId: 'online-422' });
      for (const body of [{}, { isOnline: 'true' }, { isOnline: 1 }, { isOnline: null }]) {
        const res = await t.api('patch', '/v1/subscribers/online-422/online-status').send(body);
        expect(res.status).toBe(422);
        expect(res.body.errors.isOnline).toBeDefined();
      }
    });

    it('unknown subscriber → 404; another environment → 404; no key → 401', async () => {
      await createSubscriber(t, { subscriberId: 'online-iso' });
      expect((await t.api('patch', '/v1/subscribers/nobody/online-status').send({ isOnline: true })).status).toBe(404);
      expect(
        (await t.api('patch', '/v1/subscribers/online-iso/online-status', foreign.apiKey).send({ isOnline: true }))
          .status,
      ).toBe(404);
      expect((await t.http.patch('/v1/subscribers/online-iso/online-status').send({ isOnline: true })).status).toBe(
        401,
      );
    });
  });

  describe('POST /v1/subscribers/{id}/messages/mark-as', () => {
    let subscriber: Body;
    let other: Body;

    beforeAll(async () => {
      subscriber = await createSubscriber(t, { subscriberId: 'marker' });
      other = await createSubscriber(t, { subscriberId: 'marker-other' });
    });

    const markAs = (messageId: unknown, mark: string, subscriberId = 'marker', key?: string) =>
      t.api('post', `/v1/subscribers/${subscriberId}/messages/mark-as`, key).send({ messageId, markAs: mark });
    const stored = async (id: string) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0];

    it('read on a single id: read and seen, both dates now (201, Message shape)', async () => {
      const [message] = await insertMessages(t, subscriber, [
        { cta: { type: 'redirect', data: { url: '/x' } }, templateIdentifier: 'welcome' },
      ]);
      const before = Date.now();
      const res = await markAs(message.id, 'read');
      expect(res.status).toBe(201);
      expect(res.body).toHaveLength(1);
      const [body] = res.body;
      expect(body).toMatchObject({
        _id: message.id,
        _environmentId: t.environment.id,
        _organizationId: t.environment.organizationId,
        _notificationId: message.notificationId,
        _subscriberId: subscriber._id,
        _templateId: null,
        _messageTemplateId: null,
        _feedId: null,
        templateIdentifier: 'welcome',
        transactionId: message.transactionId,
        channel: 'in_app',
        content: 'message 0',
        read: true,
        seen: true,
        status: 'sent',
        cta: { type: 'redirect', data: { url: '/x' } },
        deliveredAt: [],
        payload: {},
        overrides: {},
      });
      expect(Date.parse(body.lastReadDate)).toBeGreaterThanOrEqual(before - 1000);
      expect(body.lastSeenDate).toBe(body.lastReadDate);
      expect(body.createdAt).toBe(message.createdAt.toISOString());
      expect(await stored(message.id)).toMatchObject({ read: true, seen: true });
    });

    it('unread: read false, seen true, lastSeenDate now, lastReadDate unchanged', async () => {
      const [a, b] = await insertMessages(t, subscriber, [{}, {}]);
      const read = await markAs([a.id, b.id], 'read');
      const lastReadDate = read.body[0].lastReadDate;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await markAs([a.id, b.id], 'unread');
      expect(res.status).toBe(201);
      expect(res.body.map((m: Body) => m._id)).toEqual([a.id, b.id]);
      for (const message of res.body) {
        expect(message).toMatchObject({ read: false, seen: true, lastReadDate });
        expect(Date.parse(message.lastSeenDate)).toBeGreaterThan(Date.parse(lastReadDate));
      }
      const single = await markAs(a.id, 'unread');
      expect(single.body).toHaveLength(1);
      expect(single.body[0]).toMatchObject({ read: false, seen: true });
    });

    it('seen: read unchanged, seen true, only lastSeenDate set', async () => {
      const [unread, alreadyRead] = await insertMessages(t, subscriber, [{}, { read: true, seen: true }]);
      const res = await markAs([unread.id, alreadyRead.id], 'seen');
      expect(res.body).toHaveLength(2);
      expect(res.body[0]).toMatchObject({ read: false, seen: true });
      expect(res.body[0].lastSeenDate).toBeDefined();
      expect(res.body[0].lastReadDate).toBeUndefined();
      expect(res.body[1]).toMatchObject({ read: true, seen: true });
      const single = await markAs(unread.id, 'seen');
      expect(single.body[0]).toMatchObject({ _id: unread.id, seen: true });
    });

    it('unseen: read false, seen false, dates unchanged', async () => {
      const [a, b] = await insertMessages(t, subscriber, [{}, {}]);
      const read = await markAs([a.id, b.id], 'read');
      const res = await markAs([a.id, b.id], 'unseen');
      expect(res.body).toHaveLength(2);
      for (const [index, message] of res.body.entries()) {
        expect(message).toMatchObject({
          read: false,
          seen: false,
          lastReadDate: read.body[index].lastReadDate,
          lastSeenDate: read.body[index].lastSeenDate,
        });
      }
      const single = await markAs(a.id, 'unseen');
      expect(single.body[0]).toMatchObject({ _id: a.id, read: false, seen: false });
    });

    it("leaves out another subscriber's messages, other channels, unknown and deleted ids", async () => {
      const [mine] = await insertMessages(t, subscriber, [{}]);
      const [theirs] = await insertMessages(t, other, [{}]);
      const [email] = await insertMessages(t, subscriber, [{ channel: 'email', content: 'mail' }]);
      const [gone] = await insertMessages(t, subscriber, [{ deleted: true }]);
      const res = await markAs([mine.id, theirs.id, email.id, gone.id, '01890000-0000-7000-8000-000000000000'], 'read');
      expect(res.status).toBe(201);
      expect(res.body.map((m: Body) => m._id)).toEqual([mine.id]);
      expect(await stored(theirs.id)).toMatchObject({ read: false, seen: false });
      expect(await stored(email.id)).toMatchObject({ read: false, seen: false });
      const none = await markAs(theirs.id, 'seen');
      expect(none.status).toBe(201);
      expect(none.body).toEqual([]);
    });

    it('422: empty array, malformed id, bad or missing markAs, missing messageId', async () => {
      const [message] = await insertMessages(t, subscriber, [{}]);
      const cases: Array<[Body, string]> = [
        [{ messageId: [], markAs: 'read' }, 'messageId'],
        [{ messageId: 'not-an-id', markAs: 'read' }, 'messageId'],
        [{ messageId: [message.id, 'nope'], markAs: 'read' }, 'messageId'],
        [{ messageId: 42, markAs: 'read' }, 'messageId'],
        [{ markAs: 'read' }, 'messageId'],
        [{ messageId: message.id, markAs: 'archived' }, 'markAs'],
        [{ messageId: message.id }, 'markAs'],
      ];
      for (const [body, field] of cases) {
        const res = await t.api('post', '/v1/subscribers/marker/messages/mark-as').send(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      expect(await stored(message.id)).toMatchObject({ read: false, seen: false });
    });

    it('unknown subscriber → 404; another environment → 404; no key → 401', async () => {
      const [message] = await insertMessages(t, subscriber, [{}]);
      expect((await markAs(message.id, 'read', 'nobody')).status).toBe(404);
      expect((await markAs(message.id, 'read', 'marker', foreign.apiKey)).status).toBe(404);
      expect(
        (await t.http.post('/v1/subscribers/marker/messages/mark-as').send({ messageId: message.id, markAs: 'read' }))
          .status,
      ).toBe(401);
      expect(await stored(message.id)).toMatchObject({ read: false, seen: false });
    });
  });
});
