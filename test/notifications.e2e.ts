import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { derivedId, idFloorAt, newId } from '#common';
import {
  ExecutionDetailRepository,
  JobRepository,
  NotificationRepository,
  SubscriberRepository,
  WorkflowRepository,
  type NotificationRow,
  type SubscriberRow,
  type WorkflowRow,
} from '#dal';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The list's filters, paging and expansion, on rows written through the repositories the engine
 * uses (the engine's own tests check that a real trigger shows up here).
 */
describe('GET /v1/notifications', () => {
  let t: TestApp;
  let scope: { environmentId: string; organizationId: string };
  let alice: SubscriberRow;
  let bob: SubscriberRow;
  let welcome: WorkflowRow;
  let digest: WorkflowRow;
  const created: NotificationRow[] = [];

  async function addNotification(
    subscriber: SubscriberRow,
    workflow: WorkflowRow,
    at: Date,
    extra: Partial<NotificationRow> = {},
  ) {
    const [row] = await t.app.get(NotificationRepository).insertMany([
      {
        id: newId(),
        ...scope,
        // An event accepted at `at`: its id carries that time, as the service's ids do.
        eventId: derivedId(idFloorAt(at), newId()),
        subscriberId: subscriber.id,
        workflowId: workflow.id,
        transactionId: extra.transactionId ?? newId(),
        payload: { n: created.length },
        channels: extra.channels ?? ['in_app'],
        topics: extra.topics ?? [],
        createdAt: at,
        updatedAt: at,
      },
    ]);
    created.push(row);
    return row;
  }

  beforeAll(async () => {
    // The fixtures are dated January 2026: the maintenance run at boot must not expire them.
    t = await startTestApp({ env: { RETENTION_ACTIVITY_DAYS: '3650', RETENTION_MESSAGES_DAYS: '3650' } });
    scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    [alice, bob] = await t.app.get(SubscriberRepository).upsertMany(scope, [
      { subscriberId: 'alice', email: 'alice@example.com', firstName: 'Alice' },
      { subscriberId: 'bob', email: 'bob@corp.test' },
    ]);
    const workflows = t.app.get(WorkflowRepository);
    const group = await workflows.findOrCreateGroup(scope, 'General');
    const step = (type: string, content: string) => ({
      _id: newId(),
      active: true,
      shouldStopOnFail: false,
      template: { type, content },
      filters: [],
    });
    welcome = (await workflows.create(scope, {
      identifier: 'welcome',
      name: 'Welcome',
      notificationGroupId: group.id,
      steps: [step('in_app', 'Hi {{payload.firstName}}')],
    }))!;
    digest = (await workflows.create(scope, {
      identifier: 'digest',
      name: 'Digest',
      notificationGroupId: group.id,
      steps: [step('email', 'x')],
    }))!;

    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 12; i++) await addNotification(alice, welcome, new Date(base + i * 60_000));
    await addNotification(bob, digest, new Date(base + 20 * 60_000), { channels: ['email'], transactionId: 'tx-bob' });
    await addNotification(bob, welcome, new Date(base + 21 * 60_000), {
      topics: [{ _topicId: newId(), topicKey: 'news' }],
    });

    const target = created[created.length - 1];
    const [job] = await t.app.get(JobRepository).insertMany([
      {
        id: newId(),
        ...scope,
        notificationId: target.id,
        subscriberId: bob.id,
        workflowId: welcome.id,
        transactionId: target.transactionId,
        stepIndex: 0,
        step: welcome.steps[0],
        type: 'in_app',
        status: 'completed',
      },
    ]);
    await t.app.get(ExecutionDetailRepository).insertMany([
      {
        id: newId(),
        ...scope,
        jobId: job.id,
        notificationId: target.id,
        subscriberId: bob.id,
        status: 'Success',
        detail: 'Message sent',
        source: 'Internal',
      },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages newest first with an exact hasMore', async () => {
    const first = await t.api('get', '/v1/notifications?limit=10');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 0, pageSize: 10, hasMore: true });
    expect(first.body.data).toHaveLength(10);
    const times = first.body.data.map((item: { createdAt: string }) => item.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await t.api('get', '/v1/notifications?limit=10&page=1');
    expect(second.body.data).toHaveLength(4);
    expect(second.body.hasMore).toBe(false);
    const exact = await t.api('get', '/v1/notifications?limit=7&page=1');
    expect(exact.body.data).toHaveLength(7);
    expect(exact.body.hasMore).toBe(false);
  });

  it('expands subscriber, template, jobs and execution details', async () => {
    const res = await t.api('get', '/v1/notifications?limit=1');
    const [item] = res.body.data;
    expect(item).toMatchObject({
      _subscriberId: bob.id,
      _templateId: welcome.id,
      _environmentId: scope.environmentId,
      _organizationId: scope.organizationId,
      channels: ['in_app'],
      topics: [{ topicKey: 'news' }],
      subscriber: { _id: bob.id, subscriberId: 'bob', email: 'bob@corp.test' },
      template: {
        _id: welcome.id,
        name: 'Welcome',
        triggers: [{ type: 'event', identifier: 'welcome', variables: [{ name: 'firstName' }] }],
      },
    });
    expect(item.jobs).toHaveLength(1);
    expect(item.jobs[0]).toMatchObject({ type: 'in_app', status: 'completed' });
    expect(item.jobs[0].executionDetails).toEqual([
      expect.objectContaining({
        status: 'Success',
        detail: 'Message sent',
        source: 'Internal',
        isRetry: false,
        isTest: false,
      }),
    ]);
  });

  it.each([
    ['subscriberIds=bob', 2],
    ['subscriberIds[]=bob&subscriberIds[]=alice', 14],
    ['subscriberIds=bob&subscriberIds=nobody', 2],
    ['emails=alice@example.com', 12],
    ['search=corp.test', 2],
    ['search=alice', 12],
    ['search=bob', 2],
    // LIKE wildcards in a search match themselves only.
    ['search=%25', 0],
    ['search=_', 0],
    ['channels=email', 1],
    ['channels[]=email&channels[]=in_app', 14],
    ['transactionId=tx-bob', 1],
    ['topicKey=news', 1],
    ['after=2026-01-01T00:20:00Z', 2],
    ['before=2026-01-01T00:05:00Z', 6],
    ['after=2026-01-01T00:05:00Z&before=2026-01-01T00:06:00Z', 2],
    ['subscriberIds=nobody', 0],
  ])('filters by %s', async (query, expected) => {
    const res = await t.api('get', `/v1/notifications?limit=50&${query}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(expected);
  });

  it('shows every job by step index, details oldest first, exact timestamps, `to` as sent; gone with its subscriber', async () => {
    const production = await t.createKeyFor('Production');
    const prodScope = {
      environmentId: production.environment.id,
      organizationId: production.environment.organizationId,
    };
    const [carol] = await t.app.get(SubscriberRepository).upsertMany(prodScope, [{ subscriberId: 'carol' }]);
    const workflows = t.app.get(WorkflowRepository);
    const group = await workflows.findOrCreateGroup(prodScope, 'General');
    const step = (type: string) => ({
      _id: newId(),
      active: true,
      shouldStopOnFail: false,
      template: { type, content: 'x' },
      filters: [],
    });
    const flow = (await workflows.create(prodScope, {
      identifier: 'two-steps',
      name: 'Two steps',
      notificationGroupId: group.id,
      steps: [step('in_app'), step('email')],
    }))!;
    const at = new Date('2026-03-04T05:06:07.089Z');
    const [notification] = await t.app.get(NotificationRepository).insertMany([
      {
        id: newId(),
        ...prodScope,
        eventId: newId(),
        subscriberId: carol.id,
        workflowId: flow.id,
        transactionId: 'tx-carol',
        to: 'carol',
        createdAt: at,
        updatedAt: at,
      },
    ]);
    const job = (stepIndex: number) => ({
      id: newId(),
      ...prodScope,
      notificationId: notification.id,
      subscriberId: carol.id,
      workflowId: flow.id,
      transactionId: 'tx-carol',
      stepIndex,
      step: flow.steps[stepIndex],
      type: flow.steps[stepIndex].template.type,
      status: 'completed',
      updatedAt: at,
    });
    // Inserted out of order: the feed orders them.
    const [second, first] = await t.app.get(JobRepository).insertMany([job(1), job(0)]);
    const detail = (jobId: string, detailText: string, createdAt: Date) => ({
      id: newId(),
      ...prodScope,
      jobId,
      notificationId: notification.id,
      subscriberId: carol.id,
      status: 'Success',
      detail: detailText,
      source: 'Internal',
      createdAt,
    });
    await t.app
      .get(ExecutionDetailRepository)
      .insertMany([
        detail(first.id, 'later', new Date(at.getTime() + 2000)),
        detail(first.id, 'earlier', new Date(at.getTime() + 1000)),
      ]);

    const res = await t.api('get', '/v1/notifications', production.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [item] = res.body.data;
    expect(item).toMatchObject({
      _id: notification.id,
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-03-04T05:06:07.089Z',
      to: 'carol',
      subscriber: { subscriberId: 'carol' },
    });
    expect(item.jobs.map((j: { _id: string }) => j._id)).toEqual([first.id, second.id]);
    expect(item.jobs[0].updatedAt).toBe('2026-03-04T05:06:07.089Z');
    expect(
      item.jobs[0].executionDetails.map((d: { detail: string; createdAt: string }) => [d.detail, d.createdAt]),
    ).toEqual([
      ['earlier', '2026-03-04T05:06:08.089Z'],
      ['later', '2026-03-04T05:06:09.089Z'],
    ]);
    expect(item.jobs[1].executionDetails).toEqual([]);

    // Deleting the subscriber erases its notifications with their jobs and details (test/subscriber-erasure.e2e.ts).
    await t.app.get(SubscriberRepository).softDelete(prodScope.environmentId, 'carol');
    const afterDelete = await t.api('get', '/v1/notifications', production.apiKey);
    expect(afterDelete.body.data).toEqual([]);
  });

  it('filters by template id, single or repeated', async () => {
    const single = await t.api('get', `/v1/notifications?limit=50&templates=${digest.id}`);
    expect(single.body.data.map((item: { transactionId: string }) => item.transactionId)).toEqual(['tx-bob']);
    const both = await t.api('get', `/v1/notifications?limit=50&templates=${digest.id}&templates=${welcome.id}`);
    expect(both.body.data).toHaveLength(14);
  });

  it.each([
    'limit=0',
    'limit=51',
    'limit=abc',
    'page=-1',
    'after=not-a-date',
    'after=2026-02-01T00:00:00Z&before=2026-01-01T00:00:00Z',
    'channels=fax',
    'templates=not-an-id',
  ])('answers 422 for %s', async (query) => {
    const res = await t.api('get', `/v1/notifications?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toBeDefined();
  });

  it('sees only its own environment', async () => {
    const foreign = await t.createForeignKey();
    const res = await t.api('get', '/v1/notifications', foreign.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('requires the API key', async () => {
    expect((await t.http.get('/v1/notifications')).status).toBe(401);
  });
});
