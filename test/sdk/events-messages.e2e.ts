import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { jobs } from '#dal';
import { createWorkflow, inApp, step } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

/** Events, and what they leave behind: messages, notifications, the subscriber's feed. */
describe('@novu/api: events, messages, notifications, subscriber feed', () => {
  let sdk: SdkApp;
  let welcome: string;

  /** Triggers `welcome` for the subscriber and waits for its in-app message. */
  async function deliver(subscriberId: string, transactionId: string): Promise<string> {
    const { result } = await sdk.novu.trigger({
      workflowId: welcome,
      to: subscriberId,
      payload: { n: transactionId },
      transactionId,
    });
    expect(result).toMatchObject({ acknowledged: true, status: 'processed', transactionId });
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

  beforeAll(async () => {
    sdk = await startSdkApp();
    welcome = (await createWorkflow(sdk.t, { identifier: 'sdk-welcome', steps: [inApp('Hi {{payload.n}}')] }))
      .identifier;
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('trigger is processed and delivers an in-app message; an unknown workflow is a typed 422', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-ev-1', firstName: 'Ev' });
    const messageId = await deliver('sdk-ev-1', 'sdk-txn-1');
    expect(messageId).toEqual(expect.any(String));
    await expectValidationError(sdk.novu.trigger({ workflowId: 'sdk-no-such-workflow', to: 'sdk-ev-1' }));
  });

  it('triggerBulk answers each event in order', async () => {
    const { result } = await sdk.novu.triggerBulk({
      events: [
        { workflowId: welcome, to: 'sdk-bulk-1', transactionId: 'sdk-bulk-txn-1' },
        { workflowId: welcome, to: { subscriberId: 'sdk-bulk-2', firstName: 'Bulk' }, transactionId: 'sdk-bulk-txn-2' },
      ],
    });
    expect(result).toEqual([
      expect.objectContaining({ acknowledged: true, status: 'processed', transactionId: 'sdk-bulk-txn-1' }),
      expect.objectContaining({ acknowledged: true, status: 'processed', transactionId: 'sdk-bulk-txn-2' }),
    ]);
    await waitFor(
      async () => (await sdk.novu.messages.retrieve({ transactionId: ['sdk-bulk-txn-2'] })).result.data.length === 1,
      { description: 'the bulk message' },
    );
  });

  it('cancel stops a delayed trigger (true), then finds nothing to cancel (false)', async () => {
    const delayed = await createWorkflow(sdk.t, {
      identifier: 'sdk-delayed',
      steps: [step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }), inApp()],
    });
    await sdk.novu.trigger({ workflowId: delayed.identifier, to: 'sdk-cancel', transactionId: 'sdk-txn-cancel' });
    await waitFor(
      async () =>
        (await sdk.t.db.select().from(jobs).where(eq(jobs.transactionId, 'sdk-txn-cancel'))).some(
          (job) => job.status === 'delayed',
        ),
      { description: 'the delay to start' },
    );
    expect((await sdk.novu.cancel('sdk-txn-cancel')).result).toBe(true);
    expect((await sdk.novu.cancel('sdk-txn-cancel')).result).toBe(false);
  });

  it('messages.retrieve lists the messages of a subscriber', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-msg' });
    const first = await deliver('sdk-msg', 'sdk-msg-1');
    const second = await deliver('sdk-msg', 'sdk-msg-2');
    const { result } = await sdk.novu.messages.retrieve({ subscriberId: 'sdk-msg' });
    expect(result.data.map((message) => message.id)).toEqual([second, first]);
    expect(result.data[0]).toMatchObject({ channel: 'in_app', transactionId: 'sdk-msg-2', read: false, seen: false });
    expect(result).toMatchObject({ page: 0, hasMore: false });
  });

  it('messages.delete acknowledges; the message leaves the list; deleting again is a typed 404', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-msg-del' });
    const keep = await deliver('sdk-msg-del', 'sdk-msg-del-1');
    const doomed = await deliver('sdk-msg-del', 'sdk-msg-del-2');
    const { result } = await sdk.novu.messages.delete(doomed);
    expect(result).toEqual({ acknowledged: true, status: 'deleted' });
    const listed = await sdk.novu.messages.retrieve({ subscriberId: 'sdk-msg-del' });
    expect(listed.result.data.map((message) => message.id)).toEqual([keep]);
    await expectErrorDto(sdk.novu.messages.delete(doomed), 404);
  });

  it('notifications.list shows the triggered notification with its subscriber, template and jobs', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-activity', firstName: 'Act' });
    await deliver('sdk-activity', 'sdk-activity-1');
    const { result } = await sdk.novu.notifications.list({ transactionId: 'sdk-activity-1' });
    expect(result.data).toHaveLength(1);
    const [notification] = result.data;
    expect(notification).toMatchObject({
      transactionId: 'sdk-activity-1',
      channels: ['in_app'],
      subscriber: { subscriberId: 'sdk-activity', firstName: 'Act' },
      template: { name: 'sdk-welcome' },
    });
    expect(notification.jobs?.map((job) => job.type)).toEqual(['in_app']);
    expect(notification.jobs?.[0].status).toBe('completed');
    const all = await sdk.novu.notifications.list({ subscriberIds: ['sdk-activity'] });
    expect(all.result.data.map((row) => row.transactionId)).toEqual(['sdk-activity-1']);
  });

  it('subscribers.notifications.feed and unseenCount; subscribers.messages.markAllAs marks seen and read', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-feed' });
    const first = await deliver('sdk-feed', 'sdk-feed-1');
    const second = await deliver('sdk-feed', 'sdk-feed-2');
    const feed = await sdk.novu.subscribers.notifications.feed({ subscriberId: 'sdk-feed' });
    expect(feed.result.data.map((message) => message.id)).toEqual([second, first]);
    expect((await sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'sdk-feed' })).result.count).toBe(2);

    const marked = await sdk.novu.subscribers.messages.markAllAs({ messageId: [first], markAs: 'seen' }, 'sdk-feed');
    expect(marked.result.map((message) => [message.id, message.seen])).toEqual([[first, true]]);
    expect((await sdk.novu.subscribers.notifications.unseenCount({ subscriberId: 'sdk-feed' })).result.count).toBe(1);
    const read = await sdk.novu.subscribers.messages.markAllAs({ messageId: second, markAs: 'read' }, 'sdk-feed');
    expect(read.result[0]).toMatchObject({ id: second, read: true });
    const unread = await sdk.novu.subscribers.notifications.feed({ subscriberId: 'sdk-feed', read: false });
    expect(unread.result.data.map((message) => message.id)).toEqual([first]);
    await expectErrorDto(sdk.novu.subscribers.notifications.feed({ subscriberId: 'sdk-nobody' }), 404);
  });
});
