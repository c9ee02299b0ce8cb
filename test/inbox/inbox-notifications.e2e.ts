import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SeverityLevelEnum, type Novu } from '@novu/js';
import { createInboxWorkflow, deliver, openInbox, startInboxApp, type InboxApp } from './inbox-app.js';

/** Every notification call @novu/js makes, through the client itself, checked against the v2 API afterwards. */
describe('inbox notifications through @novu/js', () => {
  let app: InboxApp;
  let novu: Novu;
  let workflowId: string;
  let taggedId: string;

  type Listed = { id: string; isRead: boolean; isSeen: boolean; isArchived: boolean; isSnoozed: boolean };
  const v2List = async (subscriberId: string, query = ''): Promise<Listed[]> =>
    (await app.t.api('get', `/v2/subscribers/${subscriberId}/notifications?limit=100${query}`)).body.data as Listed[];
  /** Every notification of the subscriber, archived or not. */
  const v2All = async (subscriberId: string): Promise<Listed[]> => [
    ...(await v2List(subscriberId, '&archived=false')),
    ...(await v2List(subscriberId, '&archived=true')),
  ];

  async function ids(args: Parameters<Novu['notifications']['list']>[0] = {}): Promise<string[]> {
    const { data, error } = await novu.notifications.list({ limit: 50, ...args });
    expect(error).toBeUndefined();
    return data!.notifications.map((notification) => notification.id);
  }

  beforeAll(async () => {
    app = await startInboxApp();
    workflowId = (await createInboxWorkflow(app.t, 'inbox-invoices')).identifier;
    taggedId = (await createInboxWorkflow(app.t, 'inbox-tagged', ['billing'])).identifier;
    ({ novu } = await openInbox(app, { subscriberId: 'inbox-ann', firstName: 'Ann' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists rendered notifications newest first with a cursor, and filters by tags, read and data', async () => {
    const first = await deliver(app.t, workflowId, 'inbox-ann', 1);
    const second = await deliver(app.t, workflowId, 'inbox-ann', 2);
    const tagged = await deliver(app.t, taggedId, 'inbox-ann', 3);
    const page = await novu.notifications.list({ limit: 2 });
    expect(page.error).toBeUndefined();
    expect(page.data!.hasMore).toBe(true);
    const [newest] = page.data!.notifications;
    expect(newest).toMatchObject({
      id: tagged,
      subject: 'Invoice 3',
      body: 'Hello Ann, invoice 3',
      to: { subscriberId: 'inbox-ann', firstName: 'Ann' },
      isRead: false,
      isSeen: false,
      isArchived: false,
      isSnoozed: false,
      channelType: 'in_app',
      tags: ['billing'],
      data: { n: '3' },
      severity: 'none',
      primaryAction: { label: 'Pay', isCompleted: false },
      secondaryAction: { label: 'Later', isCompleted: false },
      redirect: { url: '/invoices' },
    });
    expect(await ids({ limit: 2, after: second })).toEqual([first]);
    expect(await ids({ tags: ['billing'] })).toEqual([tagged]);
    expect(await ids({ data: { n: '2' } })).toEqual([second]);
    expect(await ids({ read: true })).toEqual([]);
  });

  it('counts several filters at once and one filter alone', async () => {
    const many = await novu.notifications.count({
      filters: [{ read: false }, { tags: ['billing'] }, { archived: true }, { severity: SeverityLevelEnum.HIGH }],
    });
    expect(many.error).toBeUndefined();
    expect(many.data!.counts.map((entry) => entry.count)).toEqual([3, 1, 0, 0]);
    expect(many.data!.counts[1].filter).toEqual({ tags: ['billing'] });
    const one = await novu.notifications.count({ read: false, seen: false });
    expect(one.data).toMatchObject({ count: 3 });
    const forms = await novu.notifications.count({
      filters: [
        { tags: { or: ['billing'] } },
        { createdGte: Date.now() + 3_600_000 },
        { createdLte: Date.now() + 3_600_000 },
      ],
    });
    expect(forms.data!.counts.map((entry) => entry.count)).toEqual([1, 0, 3]);
    const andForm = await novu.notifications.count({ tags: { and: [{ or: ['billing'] }, { or: ['x'] }] } });
    expect((andForm.error?.originalError as { status?: number } | undefined)?.status).toBe(422);
  });

  it('read, unread, seen, archive, unarchive: each answers the notification and changes what the API shows', async () => {
    const id = await deliver(app.t, workflowId, 'inbox-ann', 10);
    const state = async () => (await v2All('inbox-ann')).find((n) => n.id === id);
    const read = await novu.notifications.read({ notificationId: id });
    expect(read.error).toBeUndefined();
    expect(read.data).toMatchObject({ id, isRead: true });
    expect((await v2List('inbox-ann')).find((n) => n.id === id)).toMatchObject({ isRead: true });
    expect((await novu.notifications.unread({ notificationId: id })).data).toMatchObject({ isRead: false });
    expect((await v2List('inbox-ann')).find((n) => n.id === id)).toMatchObject({ isRead: false });
    // The client builds its answer to `seen` from the instance it was given (an id alone is its own error).
    const listed = (await novu.notifications.list({ limit: 50 })).data!.notifications.find((n) => n.id === id)!;
    expect((await novu.notifications.seen({ notification: listed })).data).toMatchObject({ id, isSeen: true });
    expect((await v2List('inbox-ann')).find((n) => n.id === id)).toMatchObject({ isSeen: true });
    expect((await novu.notifications.archive({ notificationId: id })).data).toMatchObject({ isArchived: true });
    expect(await state()).toMatchObject({ isArchived: true, isRead: true });
    expect(await ids()).not.toContain(id);
    expect(await ids({ archived: true })).toContain(id);
    expect((await novu.notifications.unarchive({ notificationId: id })).data).toMatchObject({ isArchived: false });
    expect(await ids()).toContain(id);
  });

  it('snooze hides until the time and schedules the wake-up; unsnooze brings it back', async () => {
    const id = await deliver(app.t, workflowId, 'inbox-ann', 11);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await novu.notifications.snooze({ notificationId: id, snoozeUntil: until });
    expect(snoozed.error).toBeUndefined();
    expect(snoozed.data).toMatchObject({ id, isSnoozed: true, snoozedUntil: until });
    expect(await ids()).not.toContain(id);
    expect(await ids({ snoozed: true })).toContain(id);
    const wakeUps = await app.t.queue.queue('system').getJobs(['delayed']);
    expect(wakeUps.some((job) => job.name === 'wake-snoozed-message' && job.data.messageId === id)).toBe(true);
    const tooFar = await novu.notifications.snooze({
      notificationId: id,
      snoozeUntil: new Date(Date.now() + 91 * 86_400_000).toISOString(),
    });
    expect((tooFar.error?.originalError as { status?: number } | undefined)?.status).toBe(422);
    expect((await novu.notifications.unsnooze({ notificationId: id })).data).toMatchObject({ isSnoozed: false });
    expect(await ids()).toContain(id);
  });

  it('completes and reverts the primary and secondary actions', async () => {
    const id = await deliver(app.t, workflowId, 'inbox-ann', 12);
    expect((await novu.notifications.completePrimary({ notificationId: id })).data).toMatchObject({
      primaryAction: { isCompleted: true },
    });
    const raw = async () =>
      (await app.t.api('get', `/v2/subscribers/inbox-ann/notifications?limit=100`)).body.data.find(
        (n: { id: string }) => n.id === id,
      );
    expect(await raw()).toMatchObject({
      primaryAction: { isCompleted: true },
      secondaryAction: { isCompleted: false },
    });
    expect((await novu.notifications.revertPrimary({ notificationId: id })).data).toMatchObject({
      primaryAction: { isCompleted: false },
    });
    // One action is the outcome: completing the secondary one leaves the primary one pending.
    expect((await novu.notifications.completeSecondary({ notificationId: id })).data).toMatchObject({
      primaryAction: { isCompleted: false },
      secondaryAction: { isCompleted: true },
    });
    expect(await raw()).toMatchObject({
      primaryAction: { isCompleted: false },
      secondaryAction: { isCompleted: true },
    });
    expect((await novu.notifications.revertSecondary({ notificationId: id })).data).toMatchObject({
      secondaryAction: { isCompleted: false },
    });
  });

  it('bulk calls: seenAll, readAll (by tag), archiveAllRead, archiveAll, deleteAll; delete one', async () => {
    const { novu: bulk } = await openInbox(app, { subscriberId: 'inbox-bulk' });
    const plain = await deliver(app.t, workflowId, 'inbox-bulk', 1);
    const tagged = await deliver(app.t, taggedId, 'inbox-bulk', 2);
    const extra = await deliver(app.t, workflowId, 'inbox-bulk', 3);
    const byId = async () => new Map((await v2All('inbox-bulk')).map((n) => [n.id, n]));

    expect((await bulk.notifications.seenAll()).error).toBeUndefined();
    expect([...(await byId()).values()].every((n) => n.isSeen)).toBe(true);
    expect((await bulk.notifications.readAll({ tags: ['billing'] })).error).toBeUndefined();
    expect((await byId()).get(tagged)).toMatchObject({ isRead: true });
    expect((await byId()).get(plain)).toMatchObject({ isRead: false });
    expect((await bulk.notifications.archiveAllRead()).error).toBeUndefined();
    expect((await byId()).get(tagged)).toMatchObject({ isArchived: true });
    expect((await byId()).get(plain)).toMatchObject({ isArchived: false });
    expect((await bulk.notifications.archiveAll()).error).toBeUndefined();
    expect((await byId()).get(plain)).toMatchObject({ isArchived: true, isRead: true });

    expect((await bulk.notifications.delete({ notificationId: extra })).error).toBeUndefined();
    expect((await byId()).has(extra)).toBe(false);
    expect((await bulk.notifications.deleteAll()).error).toBeUndefined();
    expect((await byId()).size).toBe(0);
  });

  it("isolation: another subscriber's notification is a 404 and stays as it was", async () => {
    const { novu: eve } = await openInbox(app, { subscriberId: 'inbox-eve' });
    const annsId = await deliver(app.t, workflowId, 'inbox-ann', 20);
    for (const call of [
      () => eve.notifications.read({ notificationId: annsId }),
      () => eve.notifications.archive({ notificationId: annsId }),
      () =>
        eve.notifications.snooze({ notificationId: annsId, snoozeUntil: new Date(Date.now() + 60_000).toISOString() }),
      () => eve.notifications.completePrimary({ notificationId: annsId }),
      () => eve.notifications.delete({ notificationId: annsId }),
    ]) {
      const { error } = await call();
      expect((error?.originalError as { status?: number } | undefined)?.status).toBe(404);
    }
    expect((await eve.notifications.readAll()).error).toBeUndefined();
    expect((await eve.notifications.deleteAll()).error).toBeUndefined();
    expect(await (async () => (await eve.notifications.list()).data!.notifications)()).toEqual([]);
    expect((await v2List('inbox-ann')).find((n) => n.id === annsId)).toMatchObject({
      isRead: false,
      isArchived: false,
      isSnoozed: false,
    });
  });
});
