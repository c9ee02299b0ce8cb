import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Novu } from '@novu/js';
import { openInbox, startInboxApp, type InboxApp } from './inbox-app.js';

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

  beforeAll(async () => {
    app = await startInboxApp();
    ({ novu } = await openInbox(app, { subscriberId: 'top-tom' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('subscribe (creating the topic), list, get, update, unsubscribe', async () => {
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
    await novu.subscriptions.create({ topicKey: 'prefs' });
    const [subscription] = (await novu.subscriptions.list({ topicKey: 'prefs' })).data!;
    const res = await subscription.updatePreference({ workflowId: 'any', value: false } as never);
    expect((res.error?.originalError as { status?: number } | undefined)?.status).toBe(400);
  });
});
