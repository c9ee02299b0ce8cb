import { boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, jsonb } from './columns.js';

export const topics = pgTable(
  'topics',
  {
    ...tenantColumns(),
    key: text('key').notNull(),
    name: text('name'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('topics_env_key_uq').on(t.environmentId, t.key)],
);

/** Membership rows; the primary key doubles as the keyset-pagination index for fan-out. */
export const topicSubscribers = pgTable(
  'topic_subscribers',
  {
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    subscriberId: uuid('subscriber_id').notNull(),
    environmentId: uuid('environment_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    /** External subscriberId, copied so listings need no join. */
    externalSubscriberId: text('external_subscriber_id').notNull(),
    /** Joined through an inbox session: these count against the environment's per-subscriber cap. */
    joinedBySession: boolean('joined_by_session').notNull().default(false),
    /** Novu's subscription name and context. */
    name: text('name'),
    context: jsonb('context').$type<Record<string, unknown> | null>(),
    /**
     * Which of the topic's triggers reach this subscriber: workflow ids, `{ workflowId, enabled }`,
     * `{ workflowId, condition }` (JSON Logic) or a tag filter. Null: every trigger.
     */
    preferences: jsonb('preferences').$type<unknown[] | null>(),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ name: 'topic_subscribers_pk', columns: [t.topicId, t.subscriberId] }),
    // A subscriber's memberships: its topics, its session joins (counted at each join) and their erasure
    // when it is deleted.
    index('topic_subscribers_subscriber_idx').on(t.subscriberId),
  ],
);

export const tenants = pgTable(
  'tenants',
  {
    ...tenantColumns(),
    identifier: text('identifier').notNull(),
    name: text('name'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('tenants_env_identifier_uq').on(t.environmentId, t.identifier)],
);

export type TopicRow = typeof topics.$inferSelect;
export type TopicSubscriberRow = typeof topicSubscribers.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
