import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { jsonb, tenantColumns, timestamps, tz } from './columns.js';

/**
 * A receiver of the environment's webhook events. The signing secret is stored encrypted; during a
 * rotation the previous one keeps signing beside the new one until `previousSecretExpiresAt`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    ...tenantColumns(),
    url: text('url').notNull(),
    description: text('description'),
    /** The event types sent to it; empty means every type. */
    eventTypes: text('event_types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the service turned it off (410, failing too long); null when enabled or turned off by the tenant. */
    disabledReason: text('disabled_reason'),
    headers: jsonb('headers')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    secretEncrypted: text('secret_encrypted').notNull(),
    previousSecretEncrypted: text('previous_secret_encrypted'),
    previousSecretExpiresAt: tz('previous_secret_expires_at'),
    /** Start of the current run of failed attempts; cleared by a success. */
    failingSince: tz('failing_since'),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoints_env_idx').on(t.environmentId)],
);

/**
 * One event as sent (`{ type, timestamp, data }`), stored once whatever the number of endpoints.
 * Events and deliveries belong to an environment through their endpoint; they carry its id only.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey(),
    environmentId: uuid('environment_id').notNull(),
    type: text('type').notNull(),
    /** The JSON sent, as sent: stored and signed byte for byte, never parsed again. */
    body: text('body').notNull(),
    /** The subscriber the event is about (its message, preference or row), whose erasure removes it. */
    subscriberId: uuid('subscriber_id'),
    ...timestamps(),
  },
  (t) => [
    // The retention's walk, oldest first.
    index('webhook_events_env_created_idx').on(t.environmentId, t.createdAt.desc(), t.id.desc()),
    index('webhook_events_subscriber_idx')
      .on(t.subscriberId)
      .where(sql`${t.subscriberId} IS NOT NULL`),
  ],
);

/** One event for one endpoint: its attempts so far and when the next one is due. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    environmentId: uuid('environment_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** pending (an attempt is due at nextAttemptAt), succeeded, failed (no attempt left) or canceled. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    /**
     * Until when a lane has it in a round (another process's lane skips it; a dead one's is due again
     * after). Not indexed, so taking a lease can be a heap-only update of the row.
     */
    leasedUntil: tz('leased_until'),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    lastAttemptAt: tz('last_attempt_at'),
    ...timestamps(),
  },
  (t) => [
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt.desc(), t.id.desc()),
    // The sweeper's search for attempts whose queue entry was lost: only pending rows are indexed.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
