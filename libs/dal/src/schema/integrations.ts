import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, tz, jsonb } from './columns.js';

export const integrations = pgTable(
  'integrations',
  {
    ...tenantColumns(),
    identifier: text('identifier').notNull(),
    name: text('name').notNull(),
    providerId: text('provider_id').notNull(),
    channel: text('channel').notNull(),
    /** AES-256-GCM envelope of the credentials object: never plaintext at rest. */
    credentials: text('credentials').notNull(),
    configurations: jsonb('configurations')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    active: boolean('active').notNull().default(true),
    primary: boolean('primary').notNull().default(false),
    priority: integer('priority').notNull().default(0),
    conditions: jsonb('conditions')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    deleted: boolean('deleted').notNull().default(false),
    deletedAt: tz('deleted_at'),
    deletedBy: text('deleted_by'),
    ...timestamps(),
  },
  (t) => [
    // Soft-deleted integrations free their identifier, as workflows do.
    uniqueIndex('integrations_env_identifier_uq')
      .on(t.environmentId, t.identifier)
      .where(sql`NOT ${t.deleted}`),
    // At most one primary per (environment, channel): the database enforces what set-primary promises.
    uniqueIndex('integrations_env_channel_primary_uq')
      .on(t.environmentId, t.channel)
      .where(sql`${t.primary} AND NOT ${t.deleted}`),
    index('integrations_org_active_idx').on(t.organizationId, t.active),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
export type NewIntegrationRow = typeof integrations.$inferInsert;
