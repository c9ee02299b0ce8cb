import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { messages } from '#dal';
import { createSubscriber, insertMessages } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

describe('messages: /v1/messages, the subscriber feed and unseen count', () => {
  let t: TestApp;
  let foreign: { apiKey: string; environment: { id: string; organizationId: string } };
  let alice: Body;
  let bob: Body;
  let aliceMessages: Awaited<ReturnType<typeof insertMessages>>;

  beforeAll(async () => {
    t = await startTestApp();
    foreign = await t.createForeignKey();
    alice = await createSubscriber(t, { subscriberId: 'alice' });
    bob = await createSubscriber(t, { subscriberId: 'bob' });
    aliceMessages = await insertMessages(t, alice, [
      { content: 'a0' },
      { content: 'a1', read: true, seen: true },
      { content: 'a2', seen: true },
      { channel: 'email', content: 'mail', subject: 'Hi', email: 'alice@example.com', transactionId: 'tx-shared' },
      { content: 'a4', transactionId: 'tx-shared' },
      { content: 'a5' },
    ]);
    await insertMessages(t, bob, [{ content: 'b0' }, { content: 'b1', channel: 'sms', phone: '+1555' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /v1/messages', () => {
    it('lists newest first with the page object and the spec Message shape', async () => {
      const res = await t.api('get', '/v1/messages?limit=3');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page: 0, pageSize: 3, hasMore: true });
      expect(res.body.data).toHaveLength(3);
      const createdAt = res.body.data.map((m: Body) => Date.parse(m.createdAt));
      expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
      const last = await t.api('get', '/v1/messages?limit=3&page=2');
      expect(last.body).toMatchObject({ page: 2, pageSize: 3, hasMore: false });
      expect(last.body.data).toHaveLength(2);
      const email = (await t.api('get', '/v1/messages?channel=email')).body.data;
      expect(email).toEqual([
        expect.objectContaining({
          channel: 'email',
          subject: 'Hi',
          email: 'alice@example.com',
          _subscriberId: alice._id,
          read: false,
          seen: false,
          status: 'sent',
          cta: {},
        }),
      ]);
    });

    it('filters by subscriberId (external), channel and transactionId', async () => {
      const contents = async (query: string) =>
        (await t.api('get', `/v1/messages?limit=100&${query}`)).body.data.map((m: Body) => m.content);
      expect(await contents('subscriberId=bob')).toEqual(['b1', 'b0']);
      expect(await contents('subscriberId=bob&channel=sms')).toEqual(['b1']);
      expect(await contents('transactionId=tx-shared')).toEqual(['a4', 'mail']);
      expect(await contents('subscriberId=nobody')).toEqual([]);
    });

    it('422 on bad paging or channel; other environments see nothing; 401 without key', async () => {
      for (const query of ['limit=0', 'limit=101', 'page=-1', 'channel=fax', 'page=abc']) {
        expect((await t.api('get', `/v1/messages?${query}`)).status).toBe(422);
      }
      expect((await t.api('get', '/v1/messages', foreign.apiKey)).body.data).toEqual([]);
      expect((await t.http.get('/v1/messages')).status).toBe(401);
    });
  });

  describe('DELETE /v1/messages/{messageId}', () => {
    it('removes the message from lists, feed and counts (200, acknowledged); 404 afterwards', async () => {
      const [message] = await insertMessages(t, bob, [{ content: 'to delete' }]);
      const before = (await t.api('get', '/v1/subscribers/bob/notifications/unseen')).body.count;
      expect((await t.api('delete', `/v1/messages/${message.id}`, foreign.apiKey)).status).toBe(404);
      const res = await t.api('delete', `/v1/messages/${message.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ acknowledged: true, status: 'deleted' });
      expect((await t.api('get', '/v1/messages?subscriberId=bob')).body.data.map((m: Body) => m._id)).not.toContain(
        message.id,
      );
      expect((await t.api('get', '/v1/subscribers/bob/notifications/unseen')).body.count).toBe(before - 1);
      expect((await t.api('delete', `/v1/messages/${message.id}`)).status).toBe(404);
      const [row] = await t.db.select().from(messages).where(eq(messages.id, message.id));
      expect(row.deleted).toBe(true);
    });

    it('422 for a malformed id, 404 unknown, 401 without key', async () => {
      expect((await t.api('delete', '/v1/messages/not-a-uuid')).status).toBe(422);
      expect((await t.api('delete', '/v1/messages/01890000-0000-7000-8000-000000000000')).status).toBe(404);
      expect((await t.http.delete(`/v1/messages/${aliceMessages[0].id}`)).status).toBe(401);
    });
  });

  describe('GET /v1/subscribers/{subscriberId}/notifications/feed', () => {
    it("returns only the subscriber's in-app messages, newest first", async () => {
      const res = await t.api('get', '/v1/subscribers/alice/notifications/feed');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page: 0, pageSize: 10, hasMore: false });
      expect(res.body.data.map((m: Body) => m.content)).toEqual(['a5', 'a4', 'a2', 'a1', 'a0']);
      expect(res.body.data[0]).toMatchObject({
        _subscriberId: alice._id,
        channel: 'in_app',
        _environmentId: t.environment.id,
      });
    });

    it('shows text that looks like JSON as the text it is (the feed, the v2 list and /v1/messages)', async () => {
      const texts = ['42', 'true', 'null', '[1]', '{"a":1}', '"quoted"'];
      const carol = await createSubscriber(t, { subscriberId: 'carol-json-text' });
      await insertMessages(
        t,
        carol,
        texts.map((content) => ({ content })),
      );
      const newestFirst = [...texts].reverse();
      const feed = await t.api('get', '/v1/subscribers/carol-json-text/notifications/feed');
      expect(feed.body.data.map((m: Body) => m.content)).toEqual(newestFirst);
      const v2 = await t.api('get', '/v2/subscribers/carol-json-text/notifications');
      expect(v2.body.data.map((m: Body) => m.body)).toEqual(newestFirst);
      const v1 = await t.api('get', '/v1/messages?subscriberId=carol-json-text');
      expect(v1.body.data.map((m: Body) => m.content)).toEqual(newestFirst);
    });

    it('filters by read and seen, and pages', async () => {
      const contents = async (query: string) =>
        (await t.api('get', `/v1/subscribers/alice/notifications/feed?${query}`)).body.data.map((m: Body) => m.content);
      expect(await contents('read=true')).toEqual(['a1']);
      expect(await contents('read=false')).toEqual(['a5', 'a4', 'a2', 'a0']);
      expect(await contents('seen=false')).toEqual(['a5', 'a4', 'a0']);
      expect(await contents('seen=true&read=false')).toEqual(['a2']);
      const page = await t.api('get', '/v1/subscribers/alice/notifications/feed?limit=2&page=1');
      expect(page.body).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
      expect(page.body.data.map((m: Body) => m.content)).toEqual(['a2', 'a1']);
    });

    it('422 on bad query values, 404 unknown or foreign subscriber, 401 without key', async () => {
      for (const query of ['read=maybe', 'seen=1', 'limit=0', 'page=-2']) {
        expect((await t.api('get', `/v1/subscribers/alice/notifications/feed?${query}`)).status).toBe(422);
      }
      expect((await t.api('get', '/v1/subscribers/nobody/notifications/feed')).status).toBe(404);
      expect((await t.api('get', '/v1/subscribers/alice/notifications/feed', foreign.apiKey)).status).toBe(404);
      expect((await t.http.get('/v1/subscribers/alice/notifications/feed')).status).toBe(401);
    });
  });

  describe('GET /v1/subscribers/{subscriberId}/notifications/unseen', () => {
    it('counts unseen in-app messages and follows mark-as', async () => {
      const res = await t.api('get', '/v1/subscribers/alice/notifications/unseen');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 3 });
      await t
        .api('post', '/v1/subscribers/alice/messages/mark-as')
        .send({ messageId: aliceMessages[0].id, markAs: 'seen' });
      expect((await t.api('get', '/v1/subscribers/alice/notifications/unseen')).body).toEqual({ count: 2 });
      await t
        .api('post', '/v1/subscribers/alice/messages/mark-as')
        .send({ messageId: [aliceMessages[0].id, aliceMessages[1].id], markAs: 'unseen' });
      expect((await t.api('get', '/v1/subscribers/alice/notifications/unseen')).body).toEqual({ count: 4 });
    });

    it('404 unknown or foreign subscriber, 401 without key', async () => {
      expect((await t.api('get', '/v1/subscribers/nobody/notifications/unseen')).status).toBe(404);
      expect((await t.api('get', '/v1/subscribers/alice/notifications/unseen', foreign.apiKey)).status).toBe(404);
      expect((await t.http.get('/v1/subscribers/alice/notifications/unseen')).status).toBe(401);
    });
  });

  describe('MessageRepository.insertMany', () => {
    it('is exactly-once per (job, deliveryKey)', async () => {
      const [first] = await insertMessages(t, bob, [
        { content: 'once', jobId: '01890000-0000-7000-8000-0000000000aa' },
      ]);
      expect(first).toBeDefined();
      const again = await insertMessages(t, bob, [{ content: 'twice', jobId: '01890000-0000-7000-8000-0000000000aa' }]);
      expect(again).toEqual([]);
    });
  });

  it('a snooze time that is not a date string is a 422, also when its toString is replaced', async () => {
    const url = '/v2/subscribers/snooze-hostile/notifications/01a213a9-19d2-73a6-870d-418b00b940e7/snooze';
    for (const snoozeUntil of [[{ toString: null }], { toString: null }, 12, 'not a date']) {
      const res = await t.api('patch', url).send({ snoozeUntil });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('snoozeUntil');
    }
  });
});
