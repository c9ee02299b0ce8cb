import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Notification, Novu } from '@novu/js';
import { createInboxWorkflow, deliver, openInbox, startInboxApp, type InboxApp } from './inbox/inbox-app.js';
import { waitFor } from './support/wait.js';

/** The inbox socket through Novu's own browser client, as <Inbox /> subscribes to it. */
describe('realtime through @novu/js', () => {
  let app: InboxApp;
  const clients: Novu[] = [];

  beforeAll(async () => {
    app = await startInboxApp();
    await createInboxWorkflow(app.t, 'realtime-invoice');
  });
  afterAll(async () => {
    for (const novu of clients) await novu.socket.disconnect();
    await app.close();
  });

  it('hears a delivered notification and the unread count, and the count again after a read through the client', async () => {
    const { novu } = await openInbox(app, { subscriberId: 'rt-novu-js', firstName: 'Grace' });
    clients.push(novu);
    const received: Notification[] = [];
    const unread: { total: number; severity: Record<string, number> }[] = [];
    const unseen: number[] = [];
    const socketReady = new Promise<void>((resolve) => novu.on('socket.connect.resolved', () => resolve()));
    novu.on('notifications.notification_received', (event) => received.push(event.result));
    novu.on('notifications.unread_count_changed', (event) => unread.push(event.result));
    novu.on('notifications.unseen_count_changed', (event) => unseen.push(event.result));
    await socketReady;
    await waitFor(async () => (await app.t.api('get', '/v2/subscribers/rt-novu-js')).body.isOnline === true);

    const messageId = await deliver(app.t, 'realtime-invoice', 'rt-novu-js', 7);
    await waitFor(() => received.length === 1 && unread.length === 1, { description: 'the socket events' });
    const [notification] = received;
    expect(notification).toMatchObject({
      id: messageId,
      subject: 'Invoice 7',
      body: 'Hello Grace, invoice 7',
      isRead: false,
      isSeen: false,
      isArchived: false,
      channelType: 'in_app',
      primaryAction: { label: 'Pay', isCompleted: false },
      secondaryAction: { label: 'Later', isCompleted: false },
      redirect: { url: '/invoices' },
      data: { n: '7' },
      to: { subscriberId: 'rt-novu-js', firstName: 'Grace' },
    });
    expect(unread[0]).toEqual({ total: 1, severity: { high: 0, medium: 0, low: 0, none: 1 } });
    expect(unseen[0]).toBe(1);

    const read = await notification.read();
    expect(read.error).toBeUndefined();
    await waitFor(() => unread.length === 2, { description: 'the count after the read' });
    expect(unread[1].total).toBe(0);
  });
});
