import type { StoredChannelSettings, SubscriberRow } from '#dal';

export interface ChannelSettingsResponse {
  providerId: string;
  integrationIdentifier?: string;
  credentials: StoredChannelSettings['credentials'];
  _integrationId: string;
}

/** The spec's Subscriber shape. */
export interface SubscriberResponse {
  _id: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  locale: string | null;
  channels: ChannelSettingsResponse[];
  isOnline: boolean | null;
  lastOnlineAt: string | null;
  __v: number;
  data: Record<string, unknown> | null;
  timezone: string | null;
  _organizationId: string;
  _environmentId: string;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toSubscriberResponse(row: SubscriberRow): SubscriberResponse {
  return {
    _id: row.id,
    subscriberId: row.subscriberId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    avatar: row.avatar,
    locale: row.locale,
    channels: (row.channels ?? []).map((channel) => ({
      providerId: channel.providerId,
      ...(channel.integrationIdentifier ? { integrationIdentifier: channel.integrationIdentifier } : {}),
      credentials: channel.credentials ?? {},
      _integrationId: channel._integrationId,
    })),
    isOnline: row.isOnline ?? null,
    lastOnlineAt: row.lastOnlineAt ? row.lastOnlineAt.toISOString() : null,
    __v: row.version,
    data: row.data ?? null,
    timezone: row.timezone,
    _organizationId: row.organizationId,
    _environmentId: row.environmentId,
    deleted: row.deleted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
