import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { topicSubscribers } from '#dal';
import { createSubscriber, createTopic } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { Body } from './support/untyped-json.js';

describe('topics: /v2/topics and subscriptions', () => {
  let t: TestApp;
  let foreign: { apiKey: string };
  let production: { apiKey: string };

  beforeAll(async () => {
    t = await startTestApp();
    foreign = await t.createForeignKey();
    production = await t.createKeyFor('Production');
  });
  afterAll(async () => {
    await t?.close();
  });

  const subscribe = (key: string, subscriptions: unknown, apiKey?: string) =>
    t.api('post', `/v2/topics/${key}/subscriptions`, apiKey).send({ subscriptions });
  const unsubscribe = (key: string, subscriptions: unknown, apiKey?: string) =>
    t.api('delete', `/v2/topics/${key}/subscriptions`, apiKey).send({ subscriptions });

  describe('POST/GET/DELETE /v2/topics', () => {
    it('creates (201) and upserts: an omitted name keeps the stored one', async () => {
      const res = await t.api('post', '/v2/topics').send({ key: 'news', name: 'News' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        key: 'news',
        name: 'News',
        _environmentId: t.environment.id,
        _organizationId: t.environment.organizationId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      // Without a name the field is absent, not null.
      const unnamed = await t.api('post', '/v2/topics').send({ key: 'unnamed' });
      expect(unnamed.status).toBe(201);
      expect(unnamed.body).not.toHaveProperty('name');
      const again = await t.api('post', '/v2/topics').send({ key: 'news' });
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ _id: res.body._id, name: 'News' });
      const renamed = await t.api('post', '/v2/topics').send({ key: 'news', name: 'Daily news' });
      expect(renamed.body).toMatchObject({ _id: res.body._id, name: 'Daily news' });
      const conflict = await t.api('post', '/v2/topics?failIfExists=true').send({ key: 'news' });
      expect(conflict.status).toBe(409);
      // The error body carries the existing topic, as Novu's clients read this conflict.
      expect(conflict.body).toMatchObject({ ...renamed.body, statusCode: 409, error: 'Conflict' });
    });

    it('GET by key: 200, 404 unknown, 404 from another environment, 401 without key', async () => {
      const topic = await createTopic(t, 'alerts', 'Alerts');
      expect((await t.api('get', '/v2/topics/alerts')).body).toEqual(topic);
      expect((await t.api('get', '/v2/topics/none')).status).toBe(404);
      expect((await t.api('get', '/v2/topics/alerts', foreign.apiKey)).status).toBe(404);
      expect((await t.api('get', '/v2/topics/alerts', production.apiKey)).status).toBe(404);
      expect((await t.http.get('/v2/topics/alerts')).status).toBe(401);
    });

    it('lists with ?key= filter and cursor pagination; 422 on bad limit', async () => {
      for (let i = 0; i < 7; i++) await createTopic(t, `team-${i}`);
      const first = await t.api('get', '/v2/topics?key=team-&limit=5');
      expect(first.status).toBe(200);
      expect(first.body.data.map((row: Body) => row.key)).toEqual(['team-6', 'team-5', 'team-4', 'team-3', 'team-2']);
      const second = await t.api('get', `/v2/topics?key=team-&limit=5&after=${first.body.next}`);
      expect(second.body.data.map((row: Body) => row.key)).toEqual(['team-1', 'team-0']);
      expect(second.body.next).toBeNull();
      // The filter's total, the same on every page.
      for (const page of [first, second]) expect(page.body).toMatchObject({ totalCount: 7, totalCountCapped: false });
      expect((await t.api('get', '/v2/topics?key=TEAM-3')).body.data.map((row: Body) => row.key)).toEqual(['team-3']);
      expect((await t.api('get', '/v2/topics?limit=0')).status).toBe(422);
      expect((await t.api('get', '/v2/topics?limit=101')).status).toBe(422);
      expect((await t.api('get', '/v2/topics?after=x')).status).toBe(422);
      expect((await t.api('get', '/v2/topics', foreign.apiKey)).body.data).toEqual([]);
    });

    it('422 on malformed bodies', async () => {
      for (const body of [
        {},
        { key: '' },
        { key: 42 },
        { key: 'has space' },
        { key: 'k'.repeat(101) },
        { key: 'ok', name: 5 },
      ]) {
        const res = await t.api('post', '/v2/topics').send(body);
        expect(res.status).toBe(422);
        expect(res.body.errors).toBeDefined();
      }
    });

    it('DELETE removes the topic and its subscriptions (200, acknowledged); 404 afterwards and from another environment', async () => {
      await createSubscriber(t, { subscriberId: 'del-member' });
      const topic = await createTopic(t, 'doomed');
      await subscribe('doomed', ['del-member']);
      expect((await t.api('delete', '/v2/topics/doomed', foreign.apiKey)).status).toBe(404);
      const deleted = await t.api('delete', '/v2/topics/doomed');
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ acknowledged: true });
      expect((await t.api('get', '/v2/topics/doomed')).status).toBe(404);
      expect((await t.api('delete', '/v2/topics/doomed')).status).toBe(404);
      const rows = await t.db
        .select()
        .from(topicSubscribers)
        .where(eq(topicSubscribers.topicId, topic._id as string));
      expect(rows).toEqual([]);
    });
  });

  describe('subscriptions', () => {
    it('POST creates the topic if missing, subscribes known subscribers, lists unknown ones', async () => {
      const a = await createSubscriber(t, { subscriberId: 'ts-a', firstName: 'A' });
      await createSubscriber(t, { subscriberId: 'ts-b' });
      const res = await subscribe('fresh-topic', ['ts-a', 'ts-b', 'ts-ghost', 'ts-a']);
      expect(res.status).toBe(201);
      expect(res.body.meta).toEqual({ totalCount: 4, successful: 2, failed: 1 });
      expect(res.body.errors).toEqual([
        { subscriberId: 'ts-ghost', code: 'SUBSCRIBER_NOT_FOUND', message: expect.any(String) },
      ]);
      const first = res.body.data.find((row: Body) => row.subscriber.subscriberId === 'ts-a');
      expect(first).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        identifier: 'tk_fresh-topic:si_ts-a',
        topic: { _id: expect.any(String), key: 'fresh-topic' },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        subscriber: {
          _id: a._id,
          subscriberId: 'ts-a',
          firstName: 'A',
          lastName: null,
          email: null,
          phone: null,
          avatar: null,
        },
      });
      expect((await t.api('get', '/v2/topics/fresh-topic')).status).toBe(200);
      const again = await subscribe('fresh-topic', ['ts-a']);
      expect(again.body.meta.successful).toBe(1);
      // Subscribing again keeps the subscription: same id, same date.
      expect(again.body.data[0]).toMatchObject({ _id: first._id, createdAt: first.createdAt });
      const members = await t.api('get', '/v2/topics/fresh-topic/subscriptions');
      expect(members.body.data.map((row: Body) => row.subscriber.subscriberId).sort()).toEqual(['ts-a', 'ts-b']);
      expect(members.body.data.find((row: Body) => row.subscriber.subscriberId === 'ts-a')).toEqual(first);
      expect(members.body).toMatchObject({ totalCount: 2, totalCountCapped: false });
    });

    it('DELETE unsubscribes, reporting unknown and non-member subscribers', async () => {
      await createSubscriber(t, { subscriberId: 'tu-a' });
      await createSubscriber(t, { subscriberId: 'tu-b' });
      await createSubscriber(t, { subscriberId: 'tu-outsider' });
      await subscribe('leaving', ['tu-a', 'tu-b']);
      const res = await unsubscribe('leaving', ['tu-a', 'tu-outsider', 'tu-ghost']);
      expect(res.status).toBe(200);
      expect(res.body.data.map((row: Body) => row.subscriber.subscriberId)).toEqual(['tu-a']);
      expect(res.body.errors.map((row: Body) => [row.subscriberId, row.code]).sort()).toEqual([
        ['tu-ghost', 'SUBSCRIBER_NOT_FOUND'],
        ['tu-outsider', 'NOT_SUBSCRIBED'],
      ]);
      const members = await t.api('get', '/v2/topics/leaving/subscriptions');
      expect(members.body.data.map((row: Body) => row.subscriber.subscriberId)).toEqual(['tu-b']);
      expect((await unsubscribe('no-such-topic', ['tu-a'])).status).toBe(404);
    });

    it('GET pages members with cursors; 404 for an unknown topic', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await createSubscriber(t, { subscriberId: `tp-${i}` }))._id as string);
      await subscribe(
        'paged',
        ids.map((_, i) => `tp-${i}`),
      );
      const first = await t.api('get', '/v2/topics/paged/subscriptions?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.data.map((row: Body) => row.subscriber._id)).toEqual([...ids].sort().slice(0, 2));
      expect(first.body.data[0].createdAt).toEqual(expect.any(String));
      const second = await t.api('get', `/v2/topics/paged/subscriptions?limit=2&after=${first.body.next}`);
      const third = await t.api('get', `/v2/topics/paged/subscriptions?limit=2&after=${second.body.next}`);
      expect(
        [...first.body.data, ...second.body.data, ...third.body.data].map((row: Body) => row.subscriber._id),
      ).toEqual([...ids].sort());
      expect(third.body.next).toBeNull();
      const back = await t.api('get', `/v2/topics/paged/subscriptions?limit=2&before=${third.body.previous}`);
      expect(back.body.data).toEqual(second.body.data);
      expect((await t.api('get', '/v2/topics/nothing/subscriptions')).status).toBe(404);
      expect((await t.api('get', '/v2/topics/paged/subscriptions?limit=500')).status).toBe(422);
    });

    it('422 on malformed bodies; 404 and isolation across environments; 401 without key', async () => {
      for (const subscriptions of [[], 'ts-a', [1], [''], Array.from({ length: 101 }, (_, i) => `x${i}`), undefined]) {
        const res = await subscribe('bad-body', subscriptions);
        expect(res.status).toBe(422);
        expect(res.body.errors.subscriptions).toBeDefined();
      }
      expect((await t.api('get', '/v2/topics/bad-body')).status).toBe(404);
      expect((await unsubscribe('fresh-topic', [])).status).toBe(422);

      // A foreign environment's key sees neither the topic nor this environment's subscribers.
      const res = await subscribe('fresh-topic', ['ts-a'], foreign.apiKey);
      expect(res.status).toBe(201);
      expect(res.body.errors.map((row: Body) => row.subscriberId)).toEqual(['ts-a']);
      expect((await t.api('get', '/v2/topics/fresh-topic/subscriptions', foreign.apiKey)).body.data).toEqual([]);
      expect((await t.api('get', '/v2/topics/fresh-topic/subscriptions')).body.data).toHaveLength(2);
      expect((await t.http.post('/v2/topics/fresh-topic/subscriptions').send({ subscriptions: ['ts-a'] })).status).toBe(
        401,
      );
    });
  });
});
