import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, tz, jsonb } from './columns.js';

export const messages = pgTable(
  'messages',
  {
    ...tenantColumns(),
    notificationId: uuid('notification_id').notNull(),
    jobId: uuid('job_id'),
    /** Internal subscriber id. */
    subscriberId: uuid('subscriber_id').notNull(),
    workflowId: uuid('workflow_id'),
    templateIdentifier: text('template_identifier'),
    transactionId: text('transaction_id').notNull(),
    channel: text('channel').notNull(),
    /** Distinguishes several messages of one job (one per chat/push integration); '' for single-message steps. */
    deliveryKey: text('delivery_key').notNull().default(''),
    subject: text('subject'),
    title: text('title'),
    content: jsonb('content').$type<string | unknown[] | null>(),
    cta: jsonb('cta')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    read: boolean('read').notNull().default(false),
    seen: boolean('seen').notNull().default(false),
    lastReadDate: tz('last_read_date'),
    lastSeenDate: tz('last_seen_date'),
    deliveredAt: text('delivered_at')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Hidden from the in-app lists until then; the wake-up job clears it and adds a deliveredAt entry. */
    snoozedUntil: tz('snoozed_until'),
    archived: boolean('archived').notNull().default(false),
    archivedAt: tz('archived_at'),
    /** The workflow's tags when the message was created: the inbox filters on them. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Novu's inbox severity: high, medium, low or none. */
    severity: text('severity').notNull().default('none'),
    /** Free-form data an in-app message carries for the client (Novu's `data`). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    status: text('status').notNull().default('sent'),
    errorId: text('error_id'),
    errorText: text('error_text'),
    providerId: text('provider_id'),
    deviceTokens: text('device_tokens').array(),
    email: text('email'),
    phone: text('phone'),
    directWebhookUrl: text('direct_webhook_url'),
    contextKeys: text('context_keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    feedId: text('feed_id'),
    deleted: boolean('deleted').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // Exactly-once rows: a re-run step job writes its message's id (derived from job and delivery) again.
    index('messages_job_delivery_idx').on(t.jobId, t.deliveryKey),
    // With the id, each partition's scan is in the lists' order (newest first, id breaking ties), so
    // the newest page is merged from the partitions' first rows instead of sorting all of them.
    index('messages_env_subscriber_channel_created_idx').on(
      t.environmentId,
      t.subscriberId,
      t.channel,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('messages_env_transaction_idx').on(t.environmentId, t.transactionId),
    // The retention's walk through an environment's messages, oldest first.
    index('messages_env_created_idx').on(t.environmentId, t.createdAt.desc(), t.id.desc()),
    // The recovery sweep's search for snoozes whose wake-up entry was lost: only snoozed rows are indexed.
    index('messages_snoozed_until_idx')
      .on(t.snoozedUntil)
      .where(sql`${t.snoozedUntil} is not null`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ...tenantColumns(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** in_flight until the first request finishes, then done. */
    state: text('state').notNull(),
    responseStatus: jsonb('response_status').$type<number | null>(),
    responseBody: jsonb('response_body').$type<unknown>(),
    expiresAt: tz('expires_at').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_env_key_uq').on(t.environmentId, t.key),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
