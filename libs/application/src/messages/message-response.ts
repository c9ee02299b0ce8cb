import type { MessageView, SubscriberRow } from '#dal';
import { toSubscriberResponse, type SubscriberResponse } from '../subscribers/subscriber-response.js';
import { withoutUnsafeUrls } from './cta-urls.js';

/** The spec's Message shape (template omitted: callers that have the workflow can add it). */
export interface MessageResponse {
  _id: string;
  _templateId: string | null;
  _environmentId: string;
  _messageTemplateId: string | null;
  _organizationId: string;
  _notificationId: string;
  _subscriberId: string;
  subscriber?: SubscriberResponse;
  templateIdentifier?: string;
  createdAt: string;
  deliveredAt: string[];
  lastSeenDate?: string;
  lastReadDate?: string;
  content?: string | unknown[];
  transactionId: string;
  subject?: string;
  channel: string;
  read: boolean;
  seen: boolean;
  snoozedUntil?: string;
  email?: string;
  phone?: string;
  directWebhookUrl?: string;
  providerId?: string;
  deviceTokens?: string[];
  title?: string;
  cta: Record<string, unknown>;
  _feedId: string | null;
  status: string;
  errorId?: string;
  errorText?: string;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  contextKeys: string[];
}

/** Spec fields marked optional and not `| null` are left out rather than sent as null. */
function optional<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** `payload` and `overrides` are the trigger's, which the repository reads from its event (the row holds no copy). */
export function toMessageResponse(row: MessageView, subscriber?: SubscriberRow): MessageResponse {
  return {
    _id: row.id,
    _templateId: row.workflowId,
    _environmentId: row.environmentId,
    _messageTemplateId: null,
    _organizationId: row.organizationId,
    _notificationId: row.notificationId,
    _subscriberId: row.subscriberId,
    ...(subscriber ? { subscriber: toSubscriberResponse(subscriber) } : {}),
    ...optional('templateIdentifier', row.templateIdentifier),
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt ?? [],
    ...optional('lastSeenDate', row.lastSeenDate?.toISOString()),
    ...optional('lastReadDate', row.lastReadDate?.toISOString()),
    ...optional('content', row.content),
    transactionId: row.transactionId,
    ...optional('subject', row.subject),
    channel: row.channel,
    read: row.read,
    seen: row.seen,
    ...optional('snoozedUntil', row.snoozedUntil?.toISOString()),
    ...optional('email', row.email),
    ...optional('phone', row.phone),
    ...optional('directWebhookUrl', row.directWebhookUrl),
    ...optional('providerId', row.providerId),
    ...optional('deviceTokens', row.deviceTokens),
    ...optional('title', row.title),
    // The in-app feed renders it; a message stored before the in-app step dropped unsafe urls loses them here.
    cta: withoutUnsafeUrls(row.cta ?? {}).cta,
    _feedId: row.feedId,
    status: row.status,
    ...optional('errorId', row.errorId),
    ...optional('errorText', row.errorText),
    payload: row.payload ?? {},
    overrides: row.overrides ?? {},
    contextKeys: row.contextKeys ?? [],
  };
}
