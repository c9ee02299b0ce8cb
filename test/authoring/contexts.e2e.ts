import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { and, eq } from 'drizzle-orm';
import { TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import { contexts, notifications } from '#dal';
import { jobsOf } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';
import type { Body } from '../support/untyped-json.js';

describe('@novu/api: contexts', () => {
  let sdk: SdkApp;
  let workflowId: string;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const res = await sdk.t.api('post', '/v1/workflows').send({
      name: 'Context data',
      steps: [
        {
          template: {
            type: 'in_app',
            content: '{{ context.tenant.id }}: {{ context.tenant.data.name }} / {{ context.app.data.plan }}',
          },
        },
      ],
    });
    expect(res.status).toBe(201);
    workflowId = res.body.triggers[0].identifier as string;
  });
  afterAll(async () => {
    await sdk?.close();
  });

  const contentsOf = async (transactionId: string) => {
    const res = await sdk.t.api('get', `/v1/messages?transactionId=${transactionId}&limit=50`).expect(200);
    return (res.body.data as Body[]).map((message) => message.content as string).sort();
  };

  it('create, retrieve, update, list and delete, each answer accepted by the SDK', async () => {
    const created = await sdk.novu.contexts.create({ type: 'tenant', id: 'crud-acme', data: { name: 'Acme' } });
    expect(created.result).toMatchObject({ type: 'tenant', id: 'crud-acme', data: { name: 'Acme' } });
    expect(Date.parse(created.result.createdAt)).not.toBeNaN();

    const got = await sdk.novu.contexts.retrieve('crud-acme', 'tenant');
    expect(got.result).toEqual(created.result);

    const updated = await sdk.novu.contexts.update({
      type: 'tenant',
      id: 'crud-acme',
      updateContextRequestDto: { data: { name: 'Acme Inc', plan: 'pro' } },
    });
    // The data is replaced, not merged.
    expect(updated.result.data).toEqual({ name: 'Acme Inc', plan: 'pro' });
    const [row] = await sdk.t.db
      .select()
      .from(contexts)
      .where(and(eq(contexts.type, 'tenant'), eq(contexts.identifier, 'crud-acme')));
    expect(row.data).toEqual({ name: 'Acme Inc', plan: 'pro' });

    await sdk.novu.contexts.delete('crud-acme', 'tenant');
    await expectErrorDto(sdk.novu.contexts.retrieve('crud-acme', 'tenant'), 404);
    await expectErrorDto(sdk.novu.contexts.delete('crud-acme', 'tenant'), 404);
    await expectErrorDto(
      sdk.novu.contexts.update({ type: 'tenant', id: 'crud-acme', updateContextRequestDto: { data: {} } }),
      404,
    );
  });

  it('create of an existing type and id is a 409; the same id under another type is another context', async () => {
    await sdk.novu.contexts.create({ type: 'tenant', id: 'dup', data: { a: 1 } });
    await expectErrorDto(sdk.novu.contexts.create({ type: 'tenant', id: 'dup', data: { a: 2 } }), 409);
    const other = await sdk.novu.contexts.create({ type: 'app', id: 'dup' });
    expect(other.result).toMatchObject({ type: 'app', id: 'dup', data: {} });
    expect((await sdk.novu.contexts.retrieve('dup', 'tenant')).result.data).toEqual({ a: 1 });
  });

  it('list: newest first, cursor pages, filtered by id and by search, counted', async () => {
    for (const id of ['list-1', 'list-2', 'list-3']) await sdk.novu.contexts.create({ type: 'region', id });
    const first = await sdk.novu.contexts.list({ search: 'list-', limit: 2 });
    expect(first.result.data.map((context) => context.id)).toEqual(['list-3', 'list-2']);
    expect(first.result).toMatchObject({ totalCount: 3, totalCountCapped: false, previous: null });
    const second = await sdk.novu.contexts.list({ search: 'list-', limit: 2, after: first.result.next! });
    expect(second.result.data.map((context) => context.id)).toEqual(['list-1']);
    expect(second.result.next).toBeNull();
    const back = await sdk.novu.contexts.list({ search: 'list-', limit: 2, before: second.result.previous! });
    expect(back.result.data.map((context) => context.id)).toEqual(['list-3', 'list-2']);
    const ascending = await sdk.novu.contexts.list({ search: 'list-', orderDirection: 'ASC' });
    expect(ascending.result.data.map((context) => context.id)).toEqual(['list-1', 'list-2', 'list-3']);
    const byId = await sdk.novu.contexts.list({ id: 'list-2' });
    expect(byId.result.data.map((context) => `${context.type}:${context.id}`)).toEqual(['region:list-2']);
    // Search matches the type too, case-insensitively.
    const byType = await sdk.novu.contexts.list({ search: 'REGION' });
    expect(byType.result.totalCount).toBe(3);
  });

  it.each([
    ['a type with a colon', { type: 'ten:ant', id: 'x' }, 'type'],
    ['an id with a space', { type: 'tenant', id: 'a b' }, 'id'],
    ['an id over 100 characters', { type: 'tenant', id: 'a'.repeat(101) }, 'id'],
    ['an empty type', { type: '', id: 'x' }, 'type'],
    ['data over 64 KB', { type: 'tenant', id: 'big', data: { blob: 'x'.repeat(64 * 1024) } }, 'data'],
    ['a bridgeUrl that is not a URL', { type: 'tenant', id: 'bridge', bridgeUrl: 'not a url' }, 'bridgeUrl'],
  ])('create with %s is a 422 naming the field, and nothing is stored', async (_name, body, field) => {
    const error = await expectValidationError(sdk.novu.contexts.create(body));
    expect(Object.keys(error.errors)).toContain(field);
    expect(await sdk.t.db.select().from(contexts).where(eq(contexts.identifier, body.id))).toEqual([]);
  });

  it('update with data over 64 KB or not an object, and a path outside the pattern, are 422', async () => {
    await sdk.novu.contexts.create({ type: 'tenant', id: 'upd-bad', data: { keep: true } });
    const big = await expectValidationError(
      sdk.novu.contexts.update({
        type: 'tenant',
        id: 'upd-bad',
        updateContextRequestDto: { data: { blob: 'x'.repeat(64 * 1024) } },
      }),
    );
    expect(Object.keys(big.errors)).toEqual(['data']);
    const notObject = await sdk.t.api('patch', '/v2/contexts/tenant/upd-bad').send({ data: ['x'] });
    expect(notObject.status).toBe(422);
    expect(Object.keys(notObject.body.errors)).toEqual(['data']);
    const badPath = await sdk.t.api('get', '/v2/contexts/tenant/a%00b');
    expect(badPath.status).toBe(422);
    expect((await sdk.novu.contexts.retrieve('upd-bad', 'tenant')).result.data).toEqual({ keep: true });
  });

  it("another environment's context is a 404 and is not listed", async () => {
    await sdk.novu.contexts.create({ type: 'tenant', id: 'private', data: { secret: 1 } });
    const foreign = await sdk.t.createForeignKey();
    const stranger = new Novu({
      secretKey: foreign.apiKey,
      serverURL: sdk.novu._baseURL!.toString().replace(/\/$/, ''),
      retryConfig: { strategy: 'none' },
    });
    await expectErrorDto(stranger.contexts.retrieve('private', 'tenant'), 404);
    await expectErrorDto(
      stranger.contexts.update({ type: 'tenant', id: 'private', updateContextRequestDto: { data: {} } }),
      404,
    );
    await expectErrorDto(stranger.contexts.delete('private', 'tenant'), 404);
    expect((await stranger.contexts.list({})).result.totalCount).toBe(0);
    // Its own context of the same key is its own.
    await stranger.contexts.create({ type: 'tenant', id: 'private', data: { theirs: true } });
    expect((await sdk.novu.contexts.retrieve('private', 'tenant')).result.data).toEqual({ secret: 1 });
  });

  it('a trigger creates the contexts it names, renders stored data for an id-only context, and replaces data it gives', async () => {
    await sdk.novu.contexts.create({ type: 'tenant', id: 'trig-acme', data: { name: 'Acme Stored' } });
    const first = await sdk.novu.trigger({
      workflowId,
      to: 'ctx-sub-1',
      context: { tenant: 'trig-acme', app: { id: 'trig-app', data: { plan: 'gold' } } },
    });
    expect(first.result.status).toBe('processed');
    await triggerAndSettleFor(first.result.transactionId!);
    expect(await contentsOf(first.result.transactionId!)).toEqual(['trig-acme: Acme Stored / gold']);
    // The context named with data did not exist: it is created with that data.
    expect((await sdk.novu.contexts.retrieve('trig-app', 'app')).result.data).toEqual({ plan: 'gold' });
    // The notification row carries the contextKeys, and the notifications API shows them.
    const [notification] = await sdk.t.db
      .select()
      .from(notifications)
      .where(eq(notifications.transactionId, first.result.transactionId!));
    expect(notification.contextKeys).toEqual(['app:trig-app', 'tenant:trig-acme']);
    const feed = await sdk.novu.notifications.list({ transactionId: first.result.transactionId! });
    expect(feed.result.data[0].contextKeys).toEqual(['app:trig-app', 'tenant:trig-acme']);
    const one = await sdk.novu.notifications.retrieve(feed.result.data[0].id!);
    expect(one.result.contextKeys).toEqual(['app:trig-app', 'tenant:trig-acme']);

    // Data given for an existing context replaces the stored data (Novu's upsert on trigger).
    const second = await sdk.novu.trigger({
      workflowId,
      to: 'ctx-sub-1',
      context: { tenant: { id: 'trig-acme', data: { name: 'Acme Renamed' } }, app: 'trig-app' },
    });
    await triggerAndSettleFor(second.result.transactionId!);
    expect(await contentsOf(second.result.transactionId!)).toEqual(['trig-acme: Acme Renamed / gold']);
    expect((await sdk.novu.contexts.retrieve('trig-acme', 'tenant')).result.data).toEqual({ name: 'Acme Renamed' });

    // A context named by id alone that does not exist is created empty.
    const third = await sdk.novu.trigger({ workflowId, to: 'ctx-sub-1', context: { tenant: 'trig-new' } });
    await triggerAndSettleFor(third.result.transactionId!);
    expect((await sdk.novu.contexts.retrieve('trig-new', 'tenant')).result.data).toEqual({});
  });

  it('a bulk trigger resolves the contexts of all its events (a context named twice is one row)', async () => {
    await sdk.novu.contexts.create({ type: 'tenant', id: 'bulk-a', data: { name: 'Bulk A' } });
    const { result } = await sdk.novu.triggerBulk({
      events: [
        { workflowId, to: 'ctx-bulk-1', context: { tenant: 'bulk-a' } },
        { workflowId, to: 'ctx-bulk-2', context: { tenant: 'bulk-a', app: { id: 'bulk-app', data: { plan: 'x' } } } },
        { workflowId, to: 'ctx-bulk-3', context: { tenant: 'bulk-b' } },
      ],
    });
    expect(result.map((item) => item.status)).toEqual(['processed', 'processed', 'processed']);
    for (const item of result) await triggerAndSettleFor(item.transactionId!);
    expect(await contentsOf(result[0].transactionId!)).toEqual(['bulk-a: Bulk A / ']);
    expect(await contentsOf(result[1].transactionId!)).toEqual(['bulk-a: Bulk A / x']);
    const rows = await sdk.t.db.select().from(contexts).where(eq(contexts.environmentId, sdk.t.environment.id));
    const keys = rows.map((row) => `${row.type}:${row.identifier}`);
    expect(keys.filter((key) => key === 'tenant:bulk-a')).toHaveLength(1);
    expect(keys).toEqual(expect.arrayContaining(['tenant:bulk-b', 'app:bulk-app']));
  });

  it("the server API's subscriber notification lists, counts and bulk changes filter exactly by contextKeys", async () => {
    const sent = async (context?: Record<string, string>) => {
      const { result } = await sdk.novu.trigger({ workflowId, to: 'ctx-srv', ...(context ? { context } : {}) });
      await triggerAndSettleFor(result.transactionId!);
      return result.transactionId!;
    };
    const acme = await sent({ tenant: 'srv-acme' });
    const both = await sent({ tenant: 'srv-acme', app: 'srv-app' });
    const none = await sent();
    const transactionsOf = async (contextKeys?: string[]) => {
      const { result } = await sdk.novu.subscribers.notifications.list({
        subscriberId: 'ctx-srv',
        ...(contextKeys ? { contextKeys } : {}),
      });
      return result.data.map((notification) => notification.transactionId).sort();
    };
    expect(await transactionsOf(['tenant:srv-acme'])).toEqual([acme]);
    // Any order names the same contexts; a subset or a superset is another context.
    expect(await transactionsOf(['tenant:srv-acme', 'app:srv-app'])).toEqual([both]);
    expect(await transactionsOf(['app:srv-app'])).toEqual([]);
    expect(await transactionsOf()).toEqual([acme, both, none].sort());

    const { result: counts } = await sdk.novu.subscribers.notifications.count(
      'ctx-srv',
      JSON.stringify([{ read: false, contextKeys: ['tenant:srv-acme'] }, { read: false }]),
    );
    expect(counts.map((item) => item.count)).toEqual([1, 3]);

    await sdk.novu.subscribers.notifications.markAllAsRead({ contextKeys: ['tenant:srv-acme'] }, 'ctx-srv');
    const { result: after } = await sdk.novu.subscribers.notifications.count(
      'ctx-srv',
      JSON.stringify([{ read: false }]),
    );
    expect(after[0].count).toBe(2);

    // So do /v1/messages and the activity feed.
    const listed = await sdk.novu.messages.retrieve({ contextKeys: ['tenant:srv-acme'], limit: 50 });
    expect(listed.result.data.map((message) => message.transactionId)).toEqual([acme]);
    const feed = await sdk.novu.notifications.list({ contextKeys: ['app:srv-app', 'tenant:srv-acme'] });
    expect(feed.result.data.map((notification) => notification.transactionId)).toEqual([both]);
  });

  it('more than 5 contexts on a trigger is a 422 and creates none', async () => {
    const context = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((type) => [type, `six-${type}`]));
    const res = await sdk.t.api('post', '/v1/events/trigger').send({ name: workflowId, to: 'ctx-sub-1', context });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['context']);
    expect(await sdk.t.db.select().from(contexts).where(eq(contexts.identifier, 'six-a'))).toEqual([]);
  });

  /** The trigger went through the SDK: waits for its jobs to finish. */
  async function triggerAndSettleFor(transactionId: string): Promise<void> {
    await waitFor(
      async () => {
        const rows = await jobsOf(sdk.t, transactionId);
        return rows.length > 0 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));
      },
      { timeoutMs: 15_000, description: `jobs of ${transactionId} to settle` },
    );
  }
});
