import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { subscribers } from '#dal';
import { createIntegration, createSubscriber, subscriberRepository } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('subscribers: /v2/subscribers and POST /v1/subscribers/bulk', () => {
  let t: TestApp;
  let production: { apiKey: string };
  let foreign: { apiKey: string };

  beforeAll(async () => {
    t = await startTestApp();
    production = await t.createKeyFor('Production');
    foreign = await t.createForeignKey();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /v2/subscribers', () => {
    it('creates a subscriber with the spec shape', async () => {
      const res = await t.api('post', '/v2/subscribers').send({
        subscriberId: 'ada',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+441234',
        avatar: 'https://example.com/ada.png',
        locale: 'en-GB',
        timezone: 'Europe/London',
        data: { plan: 'pro' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        subscriberId: 'ada',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+441234',
        avatar: 'https://example.com/ada.png',
        locale: 'en-GB',
        timezone: 'Europe/London',
        data: { plan: 'pro' },
        channels: [],
        isOnline: null,
        lastOnlineAt: null,
        __v: 0,
        _organizationId: t.environment.organizationId,
        _environmentId: t.environment.id,
        deleted: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(res.body._id).not.toBe('ada');
    });

    it('upserts: undefined fields kept, null clears, __v increments only on change', async () => {
      await createSubscriber(t, {
        subscriberId: 'grace',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'g@example.com',
      });
      const updated = await t
        .api('post', '/v2/subscribers')
        .send({ subscriberId: 'grace', lastName: null, phone: '+1555' });
      expect(updated.status).toBe(201);
      expect(updated.body).toMatchObject({
        firstName: 'Grace',
        lastName: null,
        email: 'g@example.com',
        phone: '+1555',
        __v: 1,
      });
      const same = await t.api('post', '/v2/subscribers').send({ subscriberId: 'grace', firstName: 'Grace' });
      expect(same.body.__v).toBe(1);
      expect(same.body.updatedAt).toBe(updated.body.updatedAt);
      const rows = await t.db
        .select()
        .from(subscribers)
        .where(and(eq(subscribers.environmentId, t.environment.id), eq(subscribers.subscriberId, 'grace')));
      expect(rows).toHaveLength(1);
    });

    it('?failIfExists=true answers 409 for an existing subscriber and creates a new one', async () => {
      const existing = await createSubscriber(t, { subscriberId: 'exists' });
      const conflict = await t
        .api('post', '/v2/subscribers?failIfExists=true')
        .send({ subscriberId: 'exists', firstName: 'X' });
      expect(conflict.status).toBe(409);
      // The error body carries the existing subscriber, as Novu's clients read this conflict.
      expect(conflict.body).toEqual({
        ...existing,
        statusCode: 409,
        error: 'Conflict',
        message: 'Subscriber exists already exists',
        path: '/v2/subscribers?failIfExists=true',
        timestamp: expect.any(String),
      });
      expect((await t.api('get', '/v2/subscribers/exists')).body.firstName).toBeNull();
      expect((await t.api('post', '/v2/subscribers?failIfExists=true').send({ subscriberId: 'fresh' })).status).toBe(
        201,
      );
      expect((await t.api('post', '/v2/subscribers?failIfExists=maybe').send({ subscriberId: 'fresh2' })).status).toBe(
        422,
      );
    });

    it('422 on malformed bodies', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'subscriberId'],
        [{ subscriberId: 42 }, 'subscriberId'],
        [{ subscriberId: '' }, 'subscriberId'],
        [{ subscriberId: 'x', firstName: 7 }, 'firstName'],
        [{ subscriberId: 'x', data: 'text' }, 'data'],
        [{ subscriberId: 'x', timezone: 'Mars/Olympus' }, 'timezone'],
        [
          { subscriberId: 'x', channels: [{ providerId: 'carrier-pigeon', credentials: {} }] },
          'channels[0].providerId',
        ],
        [{ subscriberId: 'x', channels: [{ providerId: 'slack' }] }, 'channels[0].credentials'],
      ];
      for (const [body, field] of cases) {
        const res = await t.api('post', '/v2/subscribers').send(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      expect((await t.api('get', '/v2/subscribers/x')).status).toBe(404);
    });

    it('binds channels to the active integration of their provider; 400 without one', async () => {
      const none = await t.api('post', '/v2/subscribers').send({
        subscriberId: 'chatty',
        channels: [{ providerId: 'discord', credentials: { webhookUrl: 'https://d.example/1' } }],
      });
      expect(none.status).toBe(400);
      const integration = await createIntegration(t, { providerId: 'discord', channel: 'chat' });
      const res = await t.api('post', '/v2/subscribers').send({
        subscriberId: 'chatty',
        channels: [{ providerId: 'discord', credentials: { webhookUrl: 'https://d.example/1' } }],
      });
      expect(res.status).toBe(201);
      expect(res.body.channels).toEqual([
        { providerId: 'discord', credentials: { webhookUrl: 'https://d.example/1' }, _integrationId: integration._id },
      ]);
    });

    it('401 without a key', async () => {
      expect((await t.http.post('/v2/subscribers').send({ subscriberId: 'nokey' })).status).toBe(401);
    });
  });

  describe('GET/PATCH/DELETE /v2/subscribers/{subscriberId}', () => {
    it('GET returns the subscriber, 404 when unknown or from another environment', async () => {
      const created = await createSubscriber(t, { subscriberId: 'reader', email: 'r@example.com' });
      const res = await t.api('get', '/v2/subscribers/reader');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      expect((await t.api('get', '/v2/subscribers/nobody')).status).toBe(404);
      expect((await t.api('get', '/v2/subscribers/reader', production.apiKey)).status).toBe(404);
      expect((await t.api('get', '/v2/subscribers/reader', foreign.apiKey)).status).toBe(404);
      expect((await t.http.get('/v2/subscribers/reader')).status).toBe(401);
    });

    it('PATCH is partial: undefined kept, null clears, __v and updatedAt move', async () => {
      const created = await createSubscriber(t, {
        subscriberId: 'patchy',
        firstName: 'P',
        lastName: 'Q',
        data: { a: 1 },
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await t
        .api('patch', '/v2/subscribers/patchy')
        .send({ lastName: null, email: 'p@example.com', data: { b: 2 } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        firstName: 'P',
        lastName: null,
        email: 'p@example.com',
        data: { b: 2 },
        __v: created.__v + 1,
      });
      expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
      expect(res.body.createdAt).toBe(created.createdAt);
      const cleared = await t.api('patch', '/v2/subscribers/patchy').send({ data: null });
      expect(cleared.body).toMatchObject({ data: null, __v: created.__v + 2 });
    });

    it('PATCH: 404 unknown or foreign, 422 malformed, 401 without key', async () => {
      await createSubscriber(t, { subscriberId: 'patch-iso' });
      expect((await t.api('patch', '/v2/subscribers/nobody').send({ firstName: 'x' })).status).toBe(404);
      expect(
        (await t.api('patch', '/v2/subscribers/patch-iso', production.apiKey).send({ firstName: 'x' })).status,
      ).toBe(404);
      expect((await t.api('patch', '/v2/subscribers/patch-iso', foreign.apiKey).send({ firstName: 'x' })).status).toBe(
        404,
      );
      for (const body of [{ firstName: 1 }, { data: [1] }, { timezone: 'nowhere' }, { email: true }]) {
        expect((await t.api('patch', '/v2/subscribers/patch-iso').send(body)).status).toBe(422);
      }
      expect((await t.http.patch('/v2/subscribers/patch-iso').send({ firstName: 'x' })).status).toBe(401);
      expect((await t.api('get', '/v2/subscribers/patch-iso')).body.firstName).toBeNull();
    });

    it('DELETE reads 404 after, the row stays flagged with its fields erased, re-creating starts from nothing', async () => {
      const created = await createSubscriber(t, { subscriberId: 'ghost', firstName: 'Casper' });
      expect((await t.api('delete', '/v2/subscribers/ghost', foreign.apiKey)).status).toBe(404);
      const res = await t.api('delete', '/v2/subscribers/ghost');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ acknowledged: true, status: 'deleted' });
      expect((await t.api('get', '/v2/subscribers/ghost')).status).toBe(404);
      expect((await t.api('patch', '/v2/subscribers/ghost').send({ firstName: 'x' })).status).toBe(404);
      expect((await t.api('delete', '/v2/subscribers/ghost')).status).toBe(404);
      expect((await t.api('get', '/v2/subscribers?subscriberId=ghost')).body.data).toEqual([]);
      const [row] = await t.db
        .select()
        .from(subscribers)
        .where(eq(subscribers.id, created._id as string));
      expect(row.deleted).toBe(true);
      expect(await subscriberRepository(t).findBySubscriberId(t.environment.id, 'ghost')).toBeUndefined();

      const restored = await t.api('post', '/v2/subscribers').send({ subscriberId: 'ghost' });
      expect(restored.status).toBe(201);
      expect(restored.body).toMatchObject({ _id: created._id, deleted: false });
      expect(restored.body.firstName ?? null).toBeNull();
      expect((await t.api('get', '/v2/subscribers/ghost')).status).toBe(200);
    });
  });

  describe('GET /v2/subscribers', () => {
    beforeAll(async () => {
      const res = await t.api('post', '/v1/subscribers/bulk').send({
        subscribers: Array.from({ length: 25 }, (_, i) => ({
          subscriberId: `list-${String(i).padStart(2, '0')}`,
          firstName: i % 2 ? 'Odd' : 'Even',
          lastName: `Number${i}`,
          email: `list${i}@lists.example`,
          phone: `+3300${i}`,
        })),
      });
      expect(res.body.created).toHaveLength(25);
    });

    it('pages with next/previous cursors, newest first', async () => {
      const seen: string[] = [];
      let next: string | null = null;
      const pages: Array<{
        data: Array<{ subscriberId: string }>;
        next: string | null;
        previous: string | null;
        totalCount: number;
        totalCountCapped: boolean;
      }> = [];
      do {
        const res = await t.api('get', `/v2/subscribers?subscriberId=list-&limit=10${next ? `&after=${next}` : ''}`);
        expect(res.status).toBe(200);
        pages.push(res.body);
        seen.push(...res.body.data.map((s: { subscriberId: string }) => s.subscriberId));
        next = res.body.next;
      } while (next);
      expect(pages.map((page) => page.data.length)).toEqual([10, 10, 5]);
      // The total is the filter's, the same on every page.
      expect(pages.map((page) => [page.totalCount, page.totalCountCapped])).toEqual([
        [25, false],
        [25, false],
        [25, false],
      ]);
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `list-${String(24 - i).padStart(2, '0')}`));
      expect(pages[0].previous).toBeNull();
      expect(pages[2].next).toBeNull();
      const back = await t.api('get', `/v2/subscribers?subscriberId=list-&limit=10&before=${pages[2].previous}`);
      expect(back.body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(
        pages[1].data.map((s) => s.subscriberId),
      );
    });

    it('filters by email, phone, name and subscriberId', async () => {
      const ids = async (query: string) =>
        (await t.api('get', `/v2/subscribers?limit=100&${query}`)).body.data
          .map((s: { subscriberId: string }) => s.subscriberId)
          .sort();
      expect(await ids('email=LIST7@')).toEqual(['list-07']);
      expect(await ids('phone=%2B33001')).toEqual([
        'list-01',
        'list-10',
        'list-11',
        'list-12',
        'list-13',
        'list-14',
        'list-15',
        'list-16',
        'list-17',
        'list-18',
        'list-19',
      ]);
      expect(await ids('name=Even%20Number2')).toEqual(['list-02', 'list-20', 'list-22', 'list-24']);
      expect(await ids('subscriberId=list-2')).toEqual(['list-20', 'list-21', 'list-22', 'list-23', 'list-24']);
      expect(await ids('email=%25')).toEqual([]);
    });

    it('422 on a bad limit or cursor; other environments see nothing', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'after=not-a-uuid', 'before=12']) {
        expect((await t.api('get', `/v2/subscribers?${query}`)).status).toBe(422);
      }
      expect((await t.api('get', '/v2/subscribers', foreign.apiKey)).body).toEqual({
        data: [],
        next: null,
        previous: null,
        totalCount: 0,
        totalCountCapped: false,
      });
      expect((await t.api('get', '/v2/subscribers?subscriberId=list-', production.apiKey)).body.data).toEqual([]);
      expect((await t.http.get('/v2/subscribers')).status).toBe(401);
    });
  });

  describe('POST /v1/subscribers/bulk', () => {
    it('reports created, updated and failed per item; a bad item does not fail the rest', async () => {
      await createSubscriber(t, { subscriberId: 'bulk-old', firstName: 'Old', email: 'old@example.com' });
      const res = await t.api('post', '/v1/subscribers/bulk').send({
        subscribers: [
          { subscriberId: 'bulk-new', firstName: 'New' },
          { subscriberId: 'bulk-old', firstName: 'Renamed' },
          { firstName: 'no id' },
          { subscriberId: 'bulk-bad', firstName: 12 },
          'not an object',
          {
            subscriberId: 'bulk-chat',
            channels: [{ providerId: 'slack', credentials: { webhookUrl: 'https://s.example' } }],
          },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.created).toEqual([{ subscriberId: 'bulk-new' }]);
      expect(res.body.updated).toEqual([{ subscriberId: 'bulk-old' }]);
      expect(res.body.failed).toEqual([
        { subscriberId: null, message: expect.stringContaining('subscriberId') },
        { subscriberId: 'bulk-bad', message: expect.stringContaining('firstName') },
        { subscriberId: null, message: 'item must be an object' },
        { subscriberId: 'bulk-chat', message: expect.stringContaining('slack') },
      ]);
      expect((await t.api('get', '/v2/subscribers/bulk-old')).body).toMatchObject({
        firstName: 'Renamed',
        email: 'old@example.com',
        __v: 1,
      });
      expect((await t.api('get', '/v2/subscribers/bulk-bad')).status).toBe(404);
    });

    it('writes 500 subscribers in one request', async () => {
      const started = Date.now();
      const res = await t.api('post', '/v1/subscribers/bulk').send({
        subscribers: Array.from({ length: 500 }, (_, i) => ({
          subscriberId: `many-${i}`,
          email: `m${i}@example.com`,
          data: { i },
        })),
      });
      expect(res.status).toBe(201);
      expect(res.body.created).toHaveLength(500);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await t.api('get', '/v2/subscribers/many-499')).body.data).toEqual({ i: 499 });
    });

    it('422 on an empty, oversized or missing list; 401 without key', async () => {
      expect((await t.api('post', '/v1/subscribers/bulk').send({ subscribers: [] })).status).toBe(422);
      expect((await t.api('post', '/v1/subscribers/bulk').send({})).status).toBe(422);
      expect((await t.api('post', '/v1/subscribers/bulk').send({ subscribers: 'x' })).status).toBe(422);
      const tooMany = await t
        .api('post', '/v1/subscribers/bulk')
        .send({ subscribers: Array.from({ length: 501 }, (_, i) => ({ subscriberId: `s${i}` })) });
      expect(tooMany.status).toBe(422);
      expect((await t.http.post('/v1/subscribers/bulk').send({ subscribers: [{ subscriberId: 'k' }] })).status).toBe(
        401,
      );
    });
  });

  describe('SubscriberRepository.upsertMany', () => {
    it('one batch: duplicates collapse, an id-only input leaves the stored subscriber untouched', async () => {
      const repo = subscriberRepository(t);
      const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
      const [stored] = await repo.upsertMany(scope, [
        { subscriberId: 'repo-a', firstName: 'A', email: 'a@example.com' },
      ]);
      const rows = await repo.upsertMany(scope, [
        { subscriberId: 'repo-a' },
        { subscriberId: 'repo-b', firstName: 'B' },
        { subscriberId: 'repo-b', lastName: 'Bee' },
      ]);
      const byId = Object.fromEntries(rows.map((row) => [row.subscriberId, row]));
      expect(byId['repo-a']).toMatchObject({ id: stored.id, firstName: 'A', email: 'a@example.com', version: 0 });
      expect(byId['repo-a'].updatedAt).toEqual(stored.updatedAt);
      expect(byId['repo-b']).toMatchObject({ firstName: 'B', lastName: 'Bee', version: 0 });
      expect(await repo.upsertMany(scope, [])).toEqual([]);
    });

    it('restoreDeleted: false leaves a deleted subscriber deleted and out of the result', async () => {
      const repo = subscriberRepository(t);
      const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
      await repo.upsertMany(scope, [{ subscriberId: 'repo-gone', firstName: 'Gone' }]);
      await repo.softDelete(t.environment.id, 'repo-gone');
      const rows = await repo.upsertMany(
        scope,
        [{ subscriberId: 'repo-gone', firstName: 'Back' }, { subscriberId: 'repo-live' }],
        { restoreDeleted: false },
      );
      expect(rows.map((row) => row.subscriberId)).toEqual(['repo-live']);
      const [stored] = await t.db
        .select()
        .from(subscribers)
        .where(and(eq(subscribers.environmentId, t.environment.id), eq(subscribers.subscriberId, 'repo-gone')));
      // Still deleted: neither restored nor given the new fields (the deleted one's were erased).
      expect(stored).toMatchObject({ deleted: true, firstName: null });
    });

    it('channels: entries of one (provider, integration) fold into one; tokens given replace, absent keep', async () => {
      const repo = subscriberRepository(t);
      const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
      const integrationId = '01890000-0000-7000-8000-0000000000c1';
      const entry = (credentials: Record<string, unknown>) => ({
        providerId: 'fcm',
        _integrationId: integrationId,
        credentials,
      });
      const [first] = await repo.upsertMany(scope, [
        { subscriberId: 'repo-push', channels: [entry({ deviceTokens: ['a'] }), entry({ title: 'phone' })] },
      ]);
      expect(first.channels).toEqual([entry({ deviceTokens: ['a'], title: 'phone' })]);
      const [second] = await repo.upsertMany(scope, [
        { subscriberId: 'repo-push', channels: [entry({ deviceTokens: ['b'] })] },
        {
          subscriberId: 'repo-push',
          channels: [{ providerId: 'slack', _integrationId: integrationId, credentials: { webhookUrl: 'https://w' } }],
        },
      ]);
      expect(second.channels).toEqual([
        entry({ deviceTokens: ['b'], title: 'phone' }),
        { providerId: 'slack', _integrationId: integrationId, credentials: { webhookUrl: 'https://w' } },
      ]);
      expect(second.version).toBe(first.version + 1);
    });
  });

  describe('OpenAPI', () => {
    it('documents every subscriber, topic and message route', async () => {
      const { paths } = (await t.http.get('/api-docs-json')).body;
      for (const path of [
        '/v2/subscribers',
        '/v2/subscribers/{subscriberId}',
        '/v1/subscribers/bulk',
        '/v1/subscribers/{subscriberId}/credentials',
        '/v1/subscribers/{subscriberId}/online-status',
        '/v1/subscribers/{subscriberId}/messages/mark-as',
        '/v1/subscribers/{subscriberId}/notifications/feed',
        '/v1/subscribers/{subscriberId}/notifications/unseen',
        '/v2/topics',
        '/v2/topics/{key}',
        '/v2/topics/{key}/subscriptions',
        '/v1/messages',
        '/v1/messages/{messageId}',
      ]) {
        expect(paths[path]).toBeDefined();
      }
      expect(paths['/v1/subscribers/{subscriberId}/messages/mark-as'].post.responses['201']).toBeDefined();
      expect(paths['/v1/subscribers/{subscriberId}/credentials'].patch.responses['200']).toBeDefined();
    });

    it('the online-status response omits appio from the provider enumeration (spec note)', async () => {
      const { components } = (await t.http.get('/api-docs-json')).body;
      const online = components.schemas.OnlineStatusChannelSettingsDto.properties.providerId.enum;
      expect(online).toContain('slack');
      expect(online).not.toContain('appio');
      expect(components.schemas.ChannelSettingsResponseDto.properties.providerId.enum).toContain('appio');
      expect(components.schemas.OnlineStatusSubscriberResponseDto.properties.channels.items.$ref).toContain(
        'OnlineStatusChannelSettingsDto',
      );
    });
  });
});
