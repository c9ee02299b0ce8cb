import { describe, expect, it } from '@jest/globals';
import type { MessageRow, SubscriberRow } from '#dal';
import { toSocketMessage, unreadCountPayload, unseenCountPayload } from './socket-events.js';

const created = new Date('2026-01-01T12:00:00.000Z');
const seen = new Date('2026-01-01T12:05:00.000Z');

const subscriber = {
  id: 'row-1',
  subscriberId: 'ext-1',
  firstName: 'Ada',
  lastName: null,
  avatar: null,
  locale: 'en',
  timezone: null,
  email: 'ada@example.com',
  phone: null,
  data: null,
  channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['secret'] } }],
} as unknown as SubscriberRow;

function row(overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    id: 'm-1',
    environmentId: 'env',
    organizationId: 'org',
    notificationId: 'n-1',
    subscriberId: 'row-1',
    workflowId: 'wf',
    templateIdentifier: 'welcome',
    transactionId: 'tx',
    channel: 'in_app',
    subject: null,
    content: 'Hello',
    cta: null,
    read: false,
    seen: true,
    lastReadDate: null,
    lastSeenDate: seen,
    deliveredAt: [created.toISOString()],
    snoozedUntil: null,
    archived: false,
    archivedAt: null,
    tags: ['billing'],
    severity: 'high',
    data: null,
    createdAt: created,
    ...overrides,
  } as unknown as MessageRow;
}

describe('toSocketMessage', () => {
  it('always carries a cta object, which @novu/js reads without a guard', () => {
    expect(toSocketMessage(row({ cta: null as never }), subscriber).cta).toEqual({});
    expect(toSocketMessage(row({ cta: { data: { url: '/x' } } }), subscriber).cta).toEqual({ data: { url: '/x' } });
  });

  it('gives the dates as ISO strings, the first-seen date @novu/js reads, and leaves absent ones undefined', () => {
    const message = toSocketMessage(row(), subscriber);
    expect(message).toMatchObject({
      createdAt: created.toISOString(),
      firstSeenDate: seen.toISOString(),
      lastSeenDate: seen.toISOString(),
      deliveredAt: [created.toISOString()],
    });
    expect(message.lastReadDate).toBeUndefined();
    expect(message.snoozedUntil).toBeUndefined();
    expect(message.subject).toBeUndefined();
  });

  it('shows a stored block list as empty content and an unknown severity as none', () => {
    const message = toSocketMessage(row({ content: [{ type: 'text' }], severity: 'urgent' }), subscriber);
    expect(message.content).toBe('');
    expect(message.severity).toBe('none');
  });

  it("shows only the subscriber's own profile, never its channel credentials", () => {
    const shown = toSocketMessage(row(), subscriber).subscriber;
    expect(shown).toEqual({
      _id: 'row-1',
      subscriberId: 'ext-1',
      firstName: 'Ada',
      lastName: null,
      avatar: null,
      locale: 'en',
      timezone: null,
      email: 'ada@example.com',
      phone: null,
      data: null,
    });
  });
});

describe('count payloads', () => {
  it('fills every severity of the unread counts and keeps the plain number older clients read', () => {
    const counts = { unseen: 3, unread: { total: 2, severity: { high: 2 } } };
    expect(unreadCountPayload(counts)).toEqual({
      unreadCount: 2,
      hasMore: false,
      counts: { total: 2, severity: { high: 2, medium: 0, low: 0, none: 0 } },
    });
    expect(unseenCountPayload(counts)).toEqual({ unseenCount: 3, hasMore: false });
  });
});
