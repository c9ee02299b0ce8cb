import { isClientSafeUrl } from '#common';
import type { InboxPageMessage, SubscriberRow } from '#dal';
import { actionButton, isActionCompleted, type ActionType } from './message-state.js';

interface RedirectResponse {
  url: string;
  target?: string;
}

interface InboxActionResponse {
  label: string;
  isCompleted: boolean;
  redirect?: RedirectResponse;
}

/** Novu's InboxNotificationDto: a message as the v2 subscriber notification routes answer it. */
export interface InboxNotificationResponse {
  id: string;
  transactionId: string;
  subject?: string;
  body: string;
  to: { id: string; subscriberId: string; firstName?: string; lastName?: string; avatar?: string };
  isRead: boolean;
  isSeen: boolean;
  isArchived: boolean;
  isSnoozed: boolean;
  snoozedUntil?: string;
  deliveredAt: string[];
  createdAt: string;
  readAt?: string;
  firstSeenAt?: string;
  archivedAt?: string;
  primaryAction?: InboxActionResponse;
  secondaryAction?: InboxActionResponse;
  channelType: 'in_app';
  tags: string[];
  data?: Record<string, unknown>;
  redirect?: RedirectResponse;
  severity: string;
}

const TARGETS = new Set(['_self', '_blank', '_parent', '_top', '_unfencedTop']);

/**
 * A `{ url, target }` the SDK accepts, from the cta's or a button's stored fields; anything else is
 * left out. The in-app step already drops unsafe urls; messages stored before it did are read here.
 */
function redirectOf(value: unknown): RedirectResponse | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { url, target } = value as Record<string, unknown>;
  if (typeof url !== 'string' || url === '' || !isClientSafeUrl(url)) return undefined;
  return typeof target === 'string' && TARGETS.has(target) ? { url, target } : { url };
}

function actionOf(row: InboxPageMessage, type: ActionType): InboxActionResponse | undefined {
  const button = actionButton(row, type);
  if (!button) return undefined;
  const redirect = redirectOf(button.redirect) ?? redirectOf({ url: button.url, target: button.target });
  return {
    label: typeof button.content === 'string' ? button.content : '',
    isCompleted: isActionCompleted(row, type),
    ...(redirect ? { redirect } : {}),
  };
}

function optional<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

export function toInboxNotificationResponse(
  row: InboxPageMessage,
  subscriber: SubscriberRow,
): InboxNotificationResponse {
  const redirect = redirectOf(row.cta?.data);
  const severity = ['high', 'medium', 'low'].includes(row.severity) ? row.severity : 'none';
  return {
    id: row.id,
    transactionId: row.transactionId,
    ...optional('subject', row.subject),
    // An in-app body is a string; a stored block list (not rendered for the inbox) shows as empty.
    body: typeof row.content === 'string' ? row.content : '',
    to: {
      id: subscriber.id,
      subscriberId: subscriber.subscriberId,
      ...optional('firstName', subscriber.firstName),
      ...optional('lastName', subscriber.lastName),
      ...optional('avatar', subscriber.avatar),
    },
    isRead: row.read,
    isSeen: row.seen,
    isArchived: row.archived,
    isSnoozed: row.snoozedUntil !== null,
    ...optional('snoozedUntil', row.snoozedUntil?.toISOString()),
    deliveredAt: row.deliveredAt ?? [],
    createdAt: row.createdAt.toISOString(),
    ...optional('readAt', row.lastReadDate?.toISOString()),
    ...optional('firstSeenAt', row.lastSeenDate?.toISOString()),
    ...optional('archivedAt', row.archivedAt?.toISOString()),
    ...optional('primaryAction', actionOf(row, 'primary')),
    ...optional('secondaryAction', actionOf(row, 'secondary')),
    channelType: 'in_app',
    tags: row.tags ?? [],
    ...optional('data', row.data),
    ...optional('redirect', redirect),
    severity,
  };
}
