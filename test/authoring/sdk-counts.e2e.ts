import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { messages, subscribers } from '#dal';
import { createWorkflow, inApp, triggerAndSettle } from '../support/engine-fixtures.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';

/** The counts Novu's SDK reads back: how many messages a mark-all changed, and the feed counter. */
describe('@novu/api: mark-all counts and the unseen counter', () => {
  let sdk: SdkApp;
  let workflowId: string;
  let sequence = 0;

  async function deliver(subscriberId: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++)
      await triggerAndSettle(sdk.t, { name: workflowId, to: subscriberId, transactionId: `counts-${++sequence}` });
  }

  async function stateOf(subscriberId: string): Promise<{ read: boolean; seen: boolean; lastReadDate: Date | null }[]> {
    const [row] = await sdk.t.db.select().from(subscribers).where(eq(subscribers.subscriberId, subscriberId));
    return sdk.t.db
      .select({ read: messages.read, seen: messages.seen, lastReadDate: messages.lastReadDate })
      .from(messages)
      .where(and(eq(messages.subscriberId, row.id), eq(messages.environmentId, sdk.t.environment.id)));
  }

  const unseenCount = async (subscriberId: string, query: { seen?: boolean; limit?: number } = {}) =>
    (await sdk.novu.subscribers.notifications.unseenCount({ subscriberId, ...query })).result.count;

  beforeAll(async () => {
    sdk = await startSdkApp();
    workflowId = (await createWorkflow(sdk.t, { identifier: 'counts', steps: [inApp('Count me')] })).identifier;
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('markAll counts only the messages whose state changes: the same mark twice answers 0 the second time', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'counts-mark' });
    await deliver('counts-mark', 3);
    const markAll = async (markAs: 'read' | 'unread' | 'seen' | 'unseen') =>
      (await sdk.novu.subscribers.messages.markAll({ markAs }, 'counts-mark')).result;

    expect(await markAll('seen')).toBe(3);
    expect(await markAll('seen')).toBe(0);
    expect(await markAll('unseen')).toBe(3);
    expect(await markAll('unseen')).toBe(0);
    expect(await markAll('read')).toBe(3);
    const readAt = (await stateOf('counts-mark')).map((row) => row.lastReadDate?.getTime());
    expect(await markAll('read')).toBe(0);
    // A message already read keeps the date it was read.
    expect((await stateOf('counts-mark')).map((row) => row.lastReadDate?.getTime())).toEqual(readAt);
    expect(await markAll('unread')).toBe(3);
    expect(await markAll('unread')).toBe(0);
    expect((await stateOf('counts-mark')).every((row) => !row.read && row.seen)).toBe(true);
  });

  it('markAll counts a partial change: only the messages not yet in the state', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'counts-partial' });
    await deliver('counts-partial', 3);
    const list = await sdk.novu.subscribers.notifications.list({ subscriberId: 'counts-partial' });
    await sdk.novu.subscribers.notifications.markAsRead({
      subscriberId: 'counts-partial',
      notificationId: list.result.data[0].id,
    });
    expect((await sdk.novu.subscribers.messages.markAll({ markAs: 'read' }, 'counts-partial')).result).toBe(2);
    expect((await sdk.novu.subscribers.messages.markAll({ markAs: 'seen' }, 'counts-partial')).result).toBe(0);
  });

  it('unseenCount counts what `seen` asks for: unseen by default and with false, seen with true; up to `limit`', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'counts-seen' });
    await deliver('counts-seen', 3);
    expect(await unseenCount('counts-seen')).toBe(3);
    expect(await unseenCount('counts-seen', { seen: true })).toBe(0);

    const list = await sdk.novu.subscribers.notifications.list({ subscriberId: 'counts-seen' });
    await sdk.novu.subscribers.notifications.markAsSeen(
      { notificationIds: [list.result.data[0].id, list.result.data[1].id] },
      'counts-seen',
    );
    expect(await unseenCount('counts-seen', { seen: false })).toBe(1);
    expect(await unseenCount('counts-seen', { seen: true })).toBe(2);
    expect(await unseenCount('counts-seen', { seen: true, limit: 1 })).toBe(1);

    // The raw query: absent `seen` is Novu's default (unseen); a non-boolean is refused.
    const raw = await sdk.t.api('get', '/v1/subscribers/counts-seen/notifications/unseen');
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({ count: 1 });
    const bad = await sdk.t.api('get', '/v1/subscribers/counts-seen/notifications/unseen?seen=maybe');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['seen']);
    await expectValidationError(
      sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'counts-seen', limit: 0 }),
    );
    await expectErrorDto(sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'counts-nobody' }), 404);
  });
});
