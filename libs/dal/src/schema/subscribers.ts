import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, tz, jsonb } from './columns.js';

export interface StoredChannelSettings {
  providerId: string;
  integrationIdentifier?: string;
  _integrationId: string;
  credentials: {
    webhookUrl?: string;
    channel?: string;
    deviceTokens?: string[];
    alertUid?: string;
    title?: string;
    imageUrl?: string;
    state?: string;
    externalUrl?: string;
  };
}

export const subscribers = pgTable(
  'subscribers',
  {
    ...tenantColumns(),
    /** The external id chosen by the client. */
    subscriberId: text('subscriber_id').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    avatar: text('avatar'),
    locale: text('locale'),
    timezone: text('timezone'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    channels: jsonb('channels')
      .$type<StoredChannelSettings[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isOnline: boolean('is_online'),
    lastOnlineAt: tz('last_online_at'),
    /**
     * The api process (api_processes.id) whose inbox socket set the subscriber online; null when the
     * presence was set through the API, which no sweep undoes.
     */
    onlineProcessId: uuid('online_process_id'),
    /** Novu's __v: incremented on every change. */
    version: integer('version').notNull().default(0),
    deleted: boolean('deleted').notNull().default(false),
    /**
     * Moves on every delete. Inbox session tokens carry it, so a token issued before a delete never
     * speaks for the subscriber restored under the same subscriberId (the row is restored, not new).
     */
    generation: integer('generation').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('subscribers_env_subscriber_id_uq').on(t.environmentId, t.subscriberId),
    index('subscribers_env_email_idx').on(t.environmentId, t.email),
    // Who among a delivered batch has an open inbox socket: only online rows are in it, so each id
    // of the batch probes a small index whether nobody or thousands are online.
    index('subscribers_online_idx')
      .on(t.id)
      .where(sql`${t.isOnline}`),
    // The presence sweep's lookups: the distinct holders, then one holder's subscribers.
    index('subscribers_online_process_idx')
      .on(t.onlineProcessId)
      .where(sql`${t.onlineProcessId} IS NOT NULL`),
  ],
);

export type SubscriberRow = typeof subscribers.$inferSelect;
export type NewSubscriberRow = typeof subscribers.$inferInsert;
