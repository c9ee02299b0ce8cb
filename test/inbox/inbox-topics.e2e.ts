import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Novu } from '@novu/js';
import { eq } from 'drizzle-orm';
import { EnvironmentRepository, SubscriberRepository, topicSubscribers, type InboxTopicPolicyChange } from '#dal';
import { createWorkflow, inApp, messagesOf, triggerAndSettle } from '../support/engine-fixtures.js';
import { sleep } from '../support/wait.js';
import { openInbox, sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

/** Topic subscriptions through @novu/js: the session's subscriber's own membership, seen through the v2 API. */
describe('inbox topic subscriptions through @novu/js', () => {
  let app: InboxApp;
  let novu: Novu;

  const members = async (topicKey: string) => {
    const res = await app.t.api('get', `/v2/topics/${topicKey}/subscriptions`);
    return res.status === 200
      ? (res.body.data as { subscriber: { subscriberId: string } }[]).map((s) => s.subscriber.subscriberId)
      : res.status;
  };

  /** POST /v1/inbox/topics/{key}/subscriptions as @novu/js sends it, with this session token. */
  const join = (token: string, key: string, body: Record<string, unknown> = {}) =>
    fetch(`${app.url}/v1/inbox/topics/${encodeURIComponent(key)}/subscriptions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const leave = (token: string, key: string, subscriberId: string) =>
    fetch(`${app.url}/v1/inbox/topics/${key}/subscriptions/tk_${key}:si_${subscriberId}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });

  /** What the operator sets with `npm run cli -- environment inbox-topics`. */
  const setPolicy = async (change: InboxTopicPolicyChange) => {
    await app.t.app.get(EnvironmentRepository).setInboxTopicPolicy(app.t.environment.id, change);
  };

  beforeAll(async () => {
    app = await startInboxApp();
    ({ novu } = await openInbox(app, { subscriberId: 'top-tom' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  // First: it needs the environment as created, before any test opens topics.
  it('by default a session joins no topic: 403 saying how to open one, no membership, no delivery', async () => {
    const me = await app.t.api('get', '/v1/environments/me');
    expect(me.body.inboxTopics).toEqual({ allow: [], maxPerSubscriber: 20 });
    const staff = await app.t.api('post', '/v2/subscribers').send({ subscriberId: 'top-staff' });
    expect(
      (await app.t.api('post', '/v2/topics/staff-only/subscriptions').send({ subscriptions: ['top-staff'] })).status,
    ).toBe(201);
    const token = await sessionToken(app, 'top-intruder');

    const res = await join(token, 'staff-only');
    expect(res.status).toBe(403);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      statusCode: 403,
      message: expect.stringContaining('this environment opens no topic to inbox sessions'),
      error: 'Forbidden',
      path: '/v1/inbox/topics/staff-only/subscriptions',
      timestamp: expect.any(String),
    });
    expect(body.message).toContain("npm run cli -- environment inbox-topics --allow '<key or prefix*>,...'");
    expect(await members('staff-only')).toEqual(['top-staff']);
    // Nor can it create a topic.
    expect((await join(token, 'made-up')).status).toBe(403);
    expect((await app.t.api('get', '/v2/topics/made-up')).status).toBe(404);

    const workflow = await createWorkflow(app.t, { steps: [inApp('Staff memo')] });
    const { transactionId } = await triggerAndSettle(app.t, {
      name: workflow.identifier,
      to: [{ type: 'Topic', topicKey: 'staff-only' }],
    });
    expect((await messagesOf(app.t, transactionId)).map((m) => m.subscriberId)).toEqual([staff.body._id]);
  });

  it('subscribe (creating the topic), list, get, update, unsubscribe', async () => {
    await setPolicy({ patterns: ['releases'] });
    expect((await novu.subscriptions.list({ topicKey: 'releases' })).data).toEqual([]);
    const created = await novu.subscriptions.create({ topicKey: 'releases', topicName: 'Releases' });
    expect(created.error).toBeUndefined();
    expect(created.data).toMatchObject({ identifier: 'tk_releases:si_top-tom', topicKey: 'releases' });
    expect(await members('releases')).toEqual(['top-tom']);
    const topic = await app.t.api('get', '/v2/topics/releases');
    expect(topic.body).toMatchObject({ key: 'releases', name: 'Releases' });

    const listed = await novu.subscriptions.list({ topicKey: 'releases' });
    expect(listed.data!.map((s) => s.identifier)).toEqual(['tk_releases:si_top-tom']);
    const got = await novu.subscriptions.get({ topicKey: 'releases', identifier: 'tk_releases:si_top-tom' });
    expect(got.data).toMatchObject({ id: created.data!.id });
    expect(
      (await novu.subscriptions.get({ topicKey: 'releases', identifier: 'tk_releases:si_other' })).data,
    ).toBeNull();
    const updated = await novu.subscriptions.update({
      topicKey: 'releases',
      identifier: 'tk_releases:si_top-tom',
      name: 'x',
    });
    expect(updated.data).toMatchObject({ identifier: 'tk_releases:si_top-tom' });

    expect(
      (await novu.subscriptions.delete({ topicKey: 'releases', identifier: 'tk_releases:si_top-tom' })).error,
    ).toBeUndefined();
    expect(await members('releases')).toEqual([]);
    const again = await novu.subscriptions.delete({ topicKey: 'releases', identifier: 'tk_releases:si_top-tom' });
    expect((again.error?.originalError as { status?: number } | undefined)?.status).toBe(404);
  });

  it("cannot touch another subscriber's subscription", async () => {
    await app.t.api('post', '/v2/subscribers').send({ subscriberId: 'top-other' });
    expect(
      (await app.t.api('post', '/v2/topics/shared/subscriptions').send({ subscriptions: ['top-other'] })).status,
    ).toBe(201);
    const removed = await novu.subscriptions.delete({ topicKey: 'shared', identifier: 'tk_shared:si_top-other' });
    expect((removed.error?.originalError as { status?: number } | undefined)?.status).toBe(404);
    expect(await members('shared')).toEqual(['top-other']);
    expect((await novu.subscriptions.list({ topicKey: 'shared' })).data).toEqual([]);
  });

  it('per-subscription workflow preferences are refused (400), not pretended', async () => {
    await setPolicy({ patterns: ['prefs'] });
    expect((await novu.subscriptions.create({ topicKey: 'prefs' })).error).toBeUndefined();
    const [subscription] = (await novu.subscriptions.list({ topicKey: 'prefs' })).data!;
    const res = await subscription.updatePreference({ workflowId: 'any', value: false } as never);
    expect((res.error?.originalError as { status?: number } | undefined)?.status).toBe(400);
  });

  it('an open pattern lets sessions join and create its topics only; closing it stops new joins at once', async () => {
    await setPolicy({ patterns: ['news:*'] });
    expect((await app.t.api('get', '/v1/environments/me')).body.inboxTopics).toEqual({
      allow: ['news:*'],
      maxPerSubscriber: 20,
    });
    await app.t.api('post', '/v2/topics').send({ key: 'news:weekly', name: 'Weekly' });
    const token = await sessionToken(app, 'top-reader');

    const joined = await join(token, 'news:weekly', { topic: { name: 'Renamed' } });
    expect(joined.status).toBe(201);
    expect(((await joined.json()) as { data: unknown }).data).toMatchObject({
      identifier: 'tk_news:weekly:si_top-reader',
    });
    expect(await members('news:weekly')).toEqual(['top-reader']);
    expect((await app.t.api('get', '/v2/topics/news:weekly')).body.name).toBe('Weekly');

    const refused = await join(token, 'staff-only');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain(
      'staff-only is not among the topics this environment opens to inbox sessions',
    );
    expect(await members('staff-only')).toEqual(['top-staff']);

    // Creating is bounded by the same patterns.
    expect((await join(token, 'news:daily', { topic: { name: 'Daily' } })).status).toBe(201);
    expect((await app.t.api('get', '/v2/topics/news:daily')).body).toMatchObject({ key: 'news:daily', name: 'Daily' });
    expect((await join(token, 'newsletter')).status).toBe(403);
    expect((await app.t.api('get', '/v2/topics/newsletter')).status).toBe(404);

    // Closed: no new join, while leaving and listing one's own subscriptions stay allowed.
    await setPolicy({ patterns: [] });
    expect((await join(token, 'news:monthly')).status).toBe(403);
    const listed = await fetch(`${app.url}/v1/inbox/topics/news:weekly/subscriptions`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect((await leave(token, 'news:weekly', 'top-reader')).status).toBe(204);
    expect(await members('news:weekly')).toEqual([]);
  });

  it('a subscriber joins at most the cap of topics through sessions; leaving one frees a place', async () => {
    await setPolicy({ patterns: ['cap-*'], perSubscriber: 2 });
    const token = await sessionToken(app, 'top-capped');
    await app.t.api('post', '/v2/topics/cap-by-api/subscriptions').send({ subscriptions: ['top-capped'] });
    expect((await join(token, 'cap-1')).status).toBe(201);
    expect((await join(token, 'cap-2')).status).toBe(201);

    const refused = await join(token, 'cap-3');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain(
      'Subscriber top-capped has joined 2 topics through inbox sessions',
    );
    expect((await app.t.api('get', '/v2/topics/cap-3')).status).toBe(404);
    // A topic the subscriber is already in is answered as it is, at the cap or not.
    expect((await join(token, 'cap-1')).status).toBe(201);
    expect((await join(token, 'cap-by-api')).status).toBe(201);

    expect((await leave(token, 'cap-1', 'top-capped')).status).toBe(204);
    expect((await join(token, 'cap-3')).status).toBe(201);
    expect(await members('cap-3')).toEqual(['top-capped']);
  });

  it('concurrent joins cannot pass the cap together', async () => {
    await setPolicy({ patterns: ['race-*'], perSubscriber: 2 });
    const token = await sessionToken(app, 'top-racer');
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => join(token, `race-${i}`).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 403)).toHaveLength(4);
    const joined = await app.t.api('get', '/v2/subscribers/top-racer/subscriptions');
    expect(joined.body.data).toHaveLength(2);
    // A refused join leaves no topic behind.
    expect((await app.t.api('get', '/v2/topics?key=race-')).body.data).toHaveLength(2);
  });
  it("a join sent while the session's subscriber is being deleted joins nothing and answers 401", async () => {
    await setPolicy({ patterns: ['racing-*'] });
    const token = await sessionToken(app, 'top-racing');
    const [{ id: rowId }] = await app.t.app
      .get(SubscriberRepository)
      .findBySubscriberIds(app.t.environment.id, ['top-racing']);
    let answer: Promise<globalThis.Response> | undefined;
    // The delete's transaction, held open while the join arrives: the session still reads as valid.
    await app.t.db.transaction(async (tx) => {
      await app.t.app.get(SubscriberRepository).softDelete(app.t.environment.id, 'top-racing', tx);
      answer = join(token, 'racing-news');
      await sleep(300);
    });
    expect((await answer!).status).toBe(401);
    expect(await app.t.db.select().from(topicSubscribers).where(eq(topicSubscribers.subscriberId, rowId))).toEqual([]);
  });
});
