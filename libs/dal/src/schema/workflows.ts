import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, tz, jsonb } from './columns.js';

/** A workflow step as stored: the spec's NotificationStep (validated by the workflows module). */
export interface StoredStep {
  _id: string;
  uuid?: string;
  name?: string;
  active: boolean;
  shouldStopOnFail: boolean;
  template: { type: string; [key: string]: unknown };
  filters: unknown[];
  metadata?: Record<string, unknown>;
  replyCallback?: { active?: boolean; url?: string };
  _templateId?: string;
  _parentId?: string | null;
  /** The v2 step identifier (`/v2/workflows`), unique within its workflow. */
  stepId?: string;
  /** The v2 controls as written through `/v2/workflows`, returned as written; template and metadata are derived from them. */
  controlValues?: Record<string, unknown>;
  /** Same shape without variants of their own: the first whose filters match replaces the step's template, metadata and reply callback. */
  variants?: StoredStep[];
}

export const notificationGroups = pgTable(
  'notification_groups',
  {
    ...tenantColumns(),
    name: text('name').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('notification_groups_env_name_uq').on(t.environmentId, t.name)],
);

export const workflows = pgTable(
  'workflows',
  {
    ...tenantColumns(),
    /** The trigger identifier (event name). */
    identifier: text('identifier').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    active: boolean('active').notNull().default(true),
    draft: boolean('draft').notNull().default(false),
    critical: boolean('critical').notNull().default(false),
    preferenceSettings: jsonb('preference_settings')
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    steps: jsonb('steps')
      .$type<StoredStep[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    /** Who authors it: `novu-cloud` (v2 API), `novu-cloud-v1` (v1 API) or `external` (WORKFLOWS_DIR). */
    origin: text('origin').notNull().default('novu-cloud-v1'),
    /** JSON Schema of the trigger payload; checked at trigger when validatePayload is on. */
    payloadSchema: jsonb('payload_schema').$type<Record<string, unknown> | null>(),
    validatePayload: boolean('validate_payload').notNull().default(false),
    /** When off, `{{t.key}}` in its steps is not looked up in its translations (Novu's isTranslationEnabled). */
    isTranslationEnabled: boolean('is_translation_enabled').notNull().default(false),
    /** Novu's v2 preferences (`user` and `workflow` levels with readOnly); null: derived from preferenceSettings and critical. */
    preferences: jsonb('preferences').$type<Record<string, unknown> | null>(),
    notificationGroupId: uuid('notification_group_id').notNull(),
    creatorId: text('creator_id'),
    deleted: boolean('deleted').notNull().default(false),
    deletedAt: tz('deleted_at'),
    deletedBy: text('deleted_by'),
    ...timestamps(),
  },
  (t) => [
    // Soft-deleted workflows free their identifier.
    uniqueIndex('workflows_env_identifier_uq')
      .on(t.environmentId, t.identifier)
      .where(sql`NOT ${t.deleted}`),
  ],
);

export type NotificationGroupRow = typeof notificationGroups.$inferSelect;
export type WorkflowRow = typeof workflows.$inferSelect;
export type NewWorkflowRow = typeof workflows.$inferInsert;
