import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps(),
});

export const environments = pgTable(
  'environments',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    /** Public: the applicationIdentifier that browser clients (@novu/js) send to open an inbox session. */
    identifier: text('identifier').notNull(),
    /** When on, an inbox session needs the subscriber's HMAC hash, so a browser cannot pose as any subscriber. */
    requireHmac: boolean('require_hmac').notNull().default(false),
    /**
     * Topic keys (or prefixes ending in `*`) that inbox sessions may join or create. Empty by default:
     * a browser session joining any topic would receive what the tenant sends to it.
     */
    inboxTopicPatterns: text('inbox_topic_patterns').array().notNull().default([]),
    /** How many topics one subscriber may join through inbox sessions. */
    inboxTopicsPerSubscriber: integer('inbox_topics_per_subscriber').notNull().default(20),
    /** The dashboard colour Novu's environments carry. */
    color: text('color'),
    /** The environment changes are published from into this one (Development's parent is Production). */
    parentId: uuid('parent_id'),
    /** Days this environment keeps its activity (RETENTION_ACTIVITY_DAYS when null). */
    retentionActivityDays: integer('retention_activity_days'),
    /** Days this environment keeps its messages (RETENTION_MESSAGES_DAYS when null). */
    retentionMessagesDays: integer('retention_messages_days'),
    /** The locale of translated content for subscribers without a locale or with one that has no translation. */
    defaultLocale: text('default_locale').notNull().default('en_US'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('environments_org_name_uq').on(t.organizationId, t.name),
    uniqueIndex('environments_identifier_uq').on(t.identifier),
    // RETENTION_DAYS_MIN and RETENTION_DAYS_MAX of libs/common.
    check('environments_retention_activity_days_ck', sql`${t.retentionActivityDays} BETWEEN 1 AND 3650`),
    check('environments_retention_messages_days_ck', sql`${t.retentionMessagesDays} BETWEEN 1 AND 3650`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** sha256 hex of the key: the raw key is never stored. */
    keyHash: text('key_hash').notNull(),
    /** First characters of the key, so a person can tell keys apart. */
    prefix: text('prefix').notNull(),
    /**
     * The key encrypted with the deployment's encryption key: inbox HMAC hashes are keyed with the raw
     * key, so the server must be able to recover it. Null for keys created before this column existed.
     */
    keyEncrypted: text('key_encrypted'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('api_keys_key_hash_uq').on(t.keyHash), index('api_keys_environment_idx').on(t.environmentId)],
);

export type Organization = typeof organizations.$inferSelect;
export type Environment = typeof environments.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
