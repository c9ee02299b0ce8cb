import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { eq } from 'drizzle-orm';
import { MessageStateService } from '#application';
import { workflows } from '#dal';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

/** Novu's v2 inbox operations (`subscribers.notifications.*`) on a subscriber's in-app messages. */
describe('@novu/api: subscriber notifications (v2 inbox)', () => {
  let sdk: SdkApp;
  let plain: string;
  let withActions: string;
  let sequence = 0;

  /** Triggers the workflow for the subscriber and waits for its in-app message; answers the message id. */
  async function deliver(subscriberId: string, workflowId = plain): Promise<string> {
    const transactionId = `sdk-inbox-${++sequence}`;
    await sdk.novu.trigger({ workflowId, to: subscriberId, payload: { n: sequence }, transactionId });
    let messageId = '';
    await waitFor(
      async () => {
        const page = await sdk.novu.messages.retrieve({ subscriberId, transactionId: [transactionId] });
        messageId = page.result.data[0]?.id ?? '';
        return messageId !== '';
      },
      { description: `the message of ${transactionId}` },
    );
    return messageId;
  }

  async function listIds(subscriberId: string, filter: { archived?: boolean; snoozed?: boolean; read?: boolean } = {}) {
    const { result } = await sdk.novu.subscribers.notifications.list({ subscriberId, limit: 100, ...filter });
    return result.data.map((notification) => notification.id);
  }

  async function counts(subscriberId: string, filters: Record<string, unknown>[]): Promise<number[]> {
    const { result } = await sdk.novu.subscribers.notifications.count(subscriberId, JSON.stringify(filters));
    return result.map((entry) => entry.count);
  }

  beforeAll(async () => {
    sdk = await startSdkApp();
    const created = await createWorkflow(sdk.t, { identifier: 'sdk-inbox', steps: [inApp('Inbox {{payload.n}}')] });
    await sdk.t.db
      .update(workflows)
      .set({ tags: ['billing'] })
      .where(eq(workflows.id, created.id));
    plain = created.identifier;
    withActions = (
      await createWorkflow(sdk.t, {
        identifier: 'sdk-inbox-actions',
        steps: [
          inApp('Accept the invite', {
            template: {
              type: 'in_app',
              content: 'Accept the invite',
              data: { kind: 'invite', team: '{{payload.n}}' },
              cta: {
                data: { url: '/invites' },
                action: {
                  buttons: [
                    { type: 'primary', content: 'Accept' },
                    { type: 'secondary', content: 'Decline' },
                  ],
                },
              },
            },
          }),
        ],
      })
    ).identifier;
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('list: newest first with the cursor pages the SDK reads; filters; unknown subscriber 404; bad cursor 422', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-list', firstName: 'Lia' });
    const first = await deliver('inbox-list');
    const second = await deliver('inbox-list');
    const third = await deliver('inbox-list');
    const page1 = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-list', limit: 2 });
    expect(page1.result.data.map((notification) => notification.id)).toEqual([third, second]);
    expect(page1.result.hasMore).toBe(true);
    expect(page1.result.data[0]).toMatchObject({
      body: expect.stringContaining('Inbox'),
      to: { subscriberId: 'inbox-list', firstName: 'Lia' },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      tags: ['billing'],
      severity: 'none',
    });
    const page2 = await sdk.novu.subscribers.notifications.list({
      subscriberId: 'inbox-list',
      limit: 2,
      after: second,
    });
    expect(page2.result.data.map((notification) => notification.id)).toEqual([first]);
    expect(page2.result.hasMore).toBe(false);
    expect(await listIds('inbox-list', { read: true })).toEqual([]);
    const high = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-list', severity: ['high'] });
    expect(high.result.data).toEqual([]);
    await expectErrorDto(sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-nobody' }), 404);
    await expectValidationError(sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-list', after: 'x' }));
  });

  it('count: one count per filter, echoing it; tags filter; malformed filters 422', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-count' });
    const id = await deliver('inbox-count');
    await deliver('inbox-count');
    const { result } = await sdk.novu.subscribers.notifications.count(
      'inbox-count',
      JSON.stringify([{ read: false }, { archived: true }, { tags: ['billing'] }, { tags: ['other'] }]),
    );
    expect(result).toEqual([
      { count: 2, filter: { read: false } },
      { count: 0, filter: { archived: true } },
      { count: 2, filter: { tags: ['billing'] } },
      { count: 0, filter: { tags: ['other'] } },
    ]);
    await sdk.novu.subscribers.notifications.markAsRead({ subscriberId: 'inbox-count', notificationId: id });
    expect(await counts('inbox-count', [{ read: false }, { read: true }])).toEqual([1, 1]);
    await expectValidationError(sdk.novu.subscribers.notifications.count('inbox-count', 'not json'));
    await expectValidationError(sdk.novu.subscribers.notifications.count('inbox-count', '[{"read":"yes"}]'));
  });

  it('markAsRead and markAsUnread flip what the subscriber sees; malformed id 422, unknown id 404', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-read' });
    const id = await deliver('inbox-read');
    const read = await sdk.novu.subscribers.notifications.markAsRead({
      subscriberId: 'inbox-read',
      notificationId: id,
    });
    expect(read.result).toMatchObject({ id, isRead: true, isSeen: true, readAt: expect.any(String) });
    expect(await listIds('inbox-read', { read: true })).toEqual([id]);
    const unread = await sdk.novu.subscribers.notifications.markAsUnread({
      subscriberId: 'inbox-read',
      notificationId: id,
    });
    expect(unread.result).toMatchObject({ id, isRead: false });
    expect(await listIds('inbox-read', { read: false })).toEqual([id]);
    await expectValidationError(
      sdk.novu.subscribers.notifications.markAsRead({ subscriberId: 'inbox-read', notificationId: 'nope' }),
    );
    await expectErrorDto(
      sdk.novu.subscribers.notifications.markAsRead({
        subscriberId: 'inbox-read',
        notificationId: '01900000-0000-7000-8000-000000000000',
      }),
      404,
    );
  });

  it('markAsSeen: the given ids only; the unseen count drops', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-seen' });
    const first = await deliver('inbox-seen');
    const second = await deliver('inbox-seen');
    await sdk.novu.subscribers.notifications.markAsSeen({ notificationIds: [first] }, 'inbox-seen');
    expect((await sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'inbox-seen' })).result.count).toBe(1);
    const { result } = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-seen', seen: false });
    expect(result.data.map((notification) => notification.id)).toEqual([second]);
    await expectValidationError(
      sdk.novu.subscribers.notifications.markAsSeen({ notificationIds: ['nope'] }, 'inbox-seen'),
    );
  });

  it('markAllAsRead reads every notification', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-all-read' });
    await deliver('inbox-all-read');
    await deliver('inbox-all-read');
    await sdk.novu.subscribers.notifications.markAllAsRead({}, 'inbox-all-read');
    expect(await counts('inbox-all-read', [{ read: false }, { read: true }])).toEqual([0, 2]);
    await expectErrorDto(sdk.novu.subscribers.notifications.markAllAsRead({}, 'inbox-nobody'), 404);
  });

  it('archive hides the notification from the default list and shows it under archived; unarchive brings it back', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-archive' });
    const kept = await deliver('inbox-archive');
    const id = await deliver('inbox-archive');
    const archived = await sdk.novu.subscribers.notifications.archive({
      subscriberId: 'inbox-archive',
      notificationId: id,
    });
    expect(archived.result).toMatchObject({ id, isArchived: true, isRead: true, archivedAt: expect.any(String) });
    expect(await listIds('inbox-archive')).toEqual([kept]);
    expect(await listIds('inbox-archive', { archived: true })).toEqual([id]);
    expect(await counts('inbox-archive', [{}, { archived: true }])).toEqual([1, 1]);
    // The v1 feed lists every message and tells the archived one.
    const feed = await sdk.novu.subscribers.notifications.feed({ subscriberId: 'inbox-archive' });
    expect(feed.result.data.map((message) => [message.id, message.archived])).toEqual([
      [id, true],
      [kept, false],
    ]);

    const unarchived = await sdk.novu.subscribers.notifications.unarchive({
      subscriberId: 'inbox-archive',
      notificationId: id,
    });
    expect(unarchived.result).toMatchObject({ id, isArchived: false });
    expect(unarchived.result.archivedAt).toBeUndefined();
    expect(await listIds('inbox-archive')).toEqual([id, kept]);
  });

  it('archiveAll archives every notification; archiveAllRead only the read ones', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-archive-all' });
    await deliver('inbox-archive-all');
    await deliver('inbox-archive-all');
    await sdk.novu.subscribers.notifications.archiveAll({}, 'inbox-archive-all');
    expect(await listIds('inbox-archive-all')).toEqual([]);
    expect(await listIds('inbox-archive-all', { archived: true })).toHaveLength(2);

    await sdk.novu.subscribers.create({ subscriberId: 'inbox-archive-read' });
    const read = await deliver('inbox-archive-read');
    const unread = await deliver('inbox-archive-read');
    await sdk.novu.subscribers.notifications.markAsRead({ subscriberId: 'inbox-archive-read', notificationId: read });
    await sdk.novu.subscribers.notifications.archiveAllRead({}, 'inbox-archive-read');
    expect(await listIds('inbox-archive-read')).toEqual([unread]);
    expect(await listIds('inbox-archive-read', { archived: true })).toEqual([read]);
  });

  it('delete removes the notification from lists and counts; deleting it again is a 404', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-delete' });
    const kept = await deliver('inbox-delete');
    const id = await deliver('inbox-delete');
    await sdk.novu.subscribers.notifications.delete({ subscriberId: 'inbox-delete', notificationId: id });
    expect(await listIds('inbox-delete')).toEqual([kept]);
    expect(await counts('inbox-delete', [{}])).toEqual([1]);
    await expectErrorDto(
      sdk.novu.subscribers.notifications.delete({ subscriberId: 'inbox-delete', notificationId: id }),
      404,
    );
  });

  it('deleteAll removes every notification of the subscriber', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-delete-all' });
    await deliver('inbox-delete-all');
    const archived = await deliver('inbox-delete-all');
    await sdk.novu.subscribers.notifications.archive({ subscriberId: 'inbox-delete-all', notificationId: archived });
    await sdk.novu.subscribers.notifications.deleteAll({}, 'inbox-delete-all');
    expect(await listIds('inbox-delete-all')).toEqual([]);
    expect(await listIds('inbox-delete-all', { archived: true })).toEqual([]);
    expect((await sdk.novu.subscribers.notifications.feed({ subscriberId: 'inbox-delete-all' })).result.data).toEqual(
      [],
    );
  });

  it('completeAction marks the primary or secondary action done; a notification without that action is a 400', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-action' });
    const id = await deliver('inbox-action', withActions);
    const listed = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-action' });
    expect(listed.result.data[0]).toMatchObject({
      primaryAction: { label: 'Accept', isCompleted: false },
      secondaryAction: { label: 'Decline', isCompleted: false },
      redirect: { url: '/invites' },
      data: { kind: 'invite', team: expect.any(String) },
    });
    const invites = await sdk.novu.subscribers.notifications.list({
      subscriberId: 'inbox-action',
      data: JSON.stringify({ kind: 'invite' }),
    });
    expect(invites.result.data.map((notification) => notification.id)).toEqual([id]);
    const others = await sdk.novu.subscribers.notifications.list({
      subscriberId: 'inbox-action',
      data: JSON.stringify({ kind: 'other' }),
    });
    expect(others.result.data).toEqual([]);
    const done = await sdk.novu.subscribers.notifications.completeAction({
      subscriberId: 'inbox-action',
      notificationId: id,
      actionType: 'primary',
    });
    expect(done.result.primaryAction).toMatchObject({ label: 'Accept', isCompleted: true });
    expect(done.result.secondaryAction?.isCompleted).toBe(false);
    const message = await sdk.novu.messages.retrieve({ subscriberId: 'inbox-action' });
    expect(message.result.data[0].cta.action).toMatchObject({ status: 'done', result: { type: 'primary' } });

    const plainId = await deliver('inbox-action');
    await expectErrorDto(
      sdk.novu.subscribers.notifications.completeAction({
        subscriberId: 'inbox-action',
        notificationId: plainId,
        actionType: 'primary',
      }),
      400,
    );
  });

  it('revertAction sets the action back to pending', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-revert' });
    const id = await deliver('inbox-revert', withActions);
    await sdk.novu.subscribers.notifications.completeAction({
      subscriberId: 'inbox-revert',
      notificationId: id,
      actionType: 'secondary',
    });
    const reverted = await sdk.novu.subscribers.notifications.revertAction({
      subscriberId: 'inbox-revert',
      notificationId: id,
      actionType: 'secondary',
    });
    expect(reverted.result.secondaryAction).toMatchObject({ label: 'Decline', isCompleted: false });
    const message = await sdk.novu.messages.retrieve({ subscriberId: 'inbox-revert' });
    expect(message.result.data[0].cta.action?.status).toBe('pending');
  });

  it('snooze hides the notification until its time, then it comes back delivered anew; a past time is a 422', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-snooze' });
    const id = await deliver('inbox-snooze');
    const until = new Date(Date.now() + 2_000);
    const snoozed = await sdk.novu.subscribers.notifications.snooze({
      subscriberId: 'inbox-snooze',
      notificationId: id,
      snoozeSubscriberNotificationDto: { snoozeUntil: until },
    });
    expect(snoozed.result).toMatchObject({ id, isSnoozed: true, snoozedUntil: until.toISOString() });
    expect(await listIds('inbox-snooze')).toEqual([]);
    expect(await listIds('inbox-snooze', { snoozed: true })).toEqual([id]);
    await waitFor(async () => (await listIds('inbox-snooze')).includes(id), {
      timeoutMs: 15_000,
      intervalMs: 200,
      description: 'the snoozed notification to come back',
    });
    const { result } = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-snooze' });
    expect(result.data[0]).toMatchObject({ id, isSnoozed: false });
    expect(result.data[0].deliveredAt).toHaveLength(2);

    await expectValidationError(
      sdk.novu.subscribers.notifications.snooze({
        subscriberId: 'inbox-snooze',
        notificationId: id,
        snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() - 60_000) },
      }),
    );
  });

  it('unsnooze brings a snoozed notification back at once; the scheduled wake-up then changes nothing', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-unsnooze' });
    const id = await deliver('inbox-unsnooze');
    const until = new Date(Date.now() + 60 * 60_000);
    await sdk.novu.subscribers.notifications.snooze({
      subscriberId: 'inbox-unsnooze',
      notificationId: id,
      snoozeSubscriberNotificationDto: { snoozeUntil: until },
    });
    expect(await listIds('inbox-unsnooze')).toEqual([]);
    const back = await sdk.novu.subscribers.notifications.unsnooze({
      subscriberId: 'inbox-unsnooze',
      notificationId: id,
    });
    expect(back.result).toMatchObject({ id, isSnoozed: false });
    expect(back.result.snoozedUntil).toBeUndefined();
    expect(back.result.deliveredAt).toHaveLength(2);
    expect(await listIds('inbox-unsnooze')).toEqual([id]);
    // What the queued wake-up does when its time comes: the snooze it was scheduled for is over.
    const state = sdk.t.app.get(MessageStateService, { strict: false });
    expect(await state.wake(sdk.t.environment.id, id, until)).toBeUndefined();
    const after = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-unsnooze' });
    expect(after.result.data[0].deliveredAt).toHaveLength(2);
  });

  it('subscribers.messages.markAll marks every in-app message of the subscriber and answers how many', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-mark-all' });
    await deliver('inbox-mark-all');
    await deliver('inbox-mark-all');
    const seen = await sdk.novu.subscribers.messages.markAll({ markAs: 'seen' }, 'inbox-mark-all');
    expect(seen.result).toBe(2);
    expect(
      (await sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'inbox-mark-all' })).result.count,
    ).toBe(0);
    expect((await sdk.novu.subscribers.messages.markAll({ markAs: 'read' }, 'inbox-mark-all')).result).toBe(2);
    expect(await counts('inbox-mark-all', [{ read: true }])).toEqual([2]);
    // No message of this service belongs to a feed.
    const feed = await sdk.novu.subscribers.messages.markAll(
      { markAs: 'unread', feedIdentifier: ['news'] },
      'inbox-mark-all',
    );
    expect(feed.result).toBe(0);
    await expectErrorDto(sdk.novu.subscribers.messages.markAll({ markAs: 'read' }, 'inbox-nobody'), 404);
  });

  it('subscribers.messages.updateAsSeen sets the action status and result the inbox then shows', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-v1-action' });
    const id = await deliver('inbox-v1-action', withActions);
    const { result } = await sdk.novu.subscribers.messages.updateAsSeen({
      subscriberId: 'inbox-v1-action',
      messageId: id,
      type: 'primary',
      // The SDK types payload as an empty object and strips whatever it holds.
      markMessageActionAsSeenDto: { status: 'done', payload: {} },
    });
    expect(result).toMatchObject({
      id,
      cta: { action: { status: 'done', result: { type: 'primary', payload: {} } } },
    });
    const listed = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-v1-action' });
    expect(listed.result.data[0].primaryAction?.isCompleted).toBe(true);
    // A client that sends a payload (the SDK cannot) finds it stored as the action result's.
    const raw = await sdk.t
      .api('post', `/v1/subscribers/inbox-v1-action/messages/${id}/actions/primary`)
      .send({ status: 'done', payload: { answer: 'yes' } })
      .expect(201);
    expect(raw.body).toMatchObject({ cta: { action: { result: { type: 'primary', payload: { answer: 'yes' } } } } });
    await sdk.novu.subscribers.messages.updateAsSeen({
      subscriberId: 'inbox-v1-action',
      messageId: id,
      type: 'primary',
      markMessageActionAsSeenDto: { status: 'pending' },
    });
    const again = await sdk.novu.subscribers.notifications.list({ subscriberId: 'inbox-v1-action' });
    expect(again.result.data[0].primaryAction?.isCompleted).toBe(false);
    await expectValidationError(
      sdk.novu.subscribers.messages.updateAsSeen({
        subscriberId: 'inbox-v1-action',
        messageId: id,
        type: 'tertiary',
        markMessageActionAsSeenDto: { status: 'done' },
      }),
    );
    await expectErrorDto(
      sdk.novu.subscribers.messages.updateAsSeen({
        subscriberId: 'inbox-v1-action',
        messageId: '01900000-0000-7000-8000-000000000000',
        type: 'primary',
        markMessageActionAsSeenDto: { status: 'done' },
      }),
      404,
    );
  });

  it("another environment's key sees neither the subscriber's notifications nor changes them", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'inbox-isolated' });
    const id = await deliver('inbox-isolated');
    const foreign = await sdk.t.createForeignKey();
    const { port } = sdk.t.app.getHttpServer().address() as { port: number };
    const other = new Novu({
      secretKey: foreign.apiKey,
      serverURL: `http://127.0.0.1:${port}`,
      retryConfig: { strategy: 'none' },
    });
    await expectErrorDto(other.subscribers.notifications.list({ subscriberId: 'inbox-isolated' }), 404);
    // Even with a subscriber of the same id there, the message stays out of reach.
    await other.subscribers.create({ subscriberId: 'inbox-isolated' });
    await expectErrorDto(
      other.subscribers.notifications.archive({ subscriberId: 'inbox-isolated', notificationId: id }),
      404,
    );
    await expectErrorDto(
      other.subscribers.notifications.delete({ subscriberId: 'inbox-isolated', notificationId: id }),
      404,
    );
    expect(await listIds('inbox-isolated')).toEqual([id]);
  });
});
