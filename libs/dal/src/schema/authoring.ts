import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jsonb, tenantColumns, timestamps } from './columns.js';

/**
 * An email layout: HTML with a `{{content}}` slot that an email step's body is rendered into. Keyed
 * by `layoutId` across environments, so publishing copies a layout by that key.
 */
export const layouts = pgTable(
  'layouts',
  {
    ...tenantColumns(),
    layoutId: text('layout_id').notNull(),
    name: text('name').notNull(),
    /** The environment's layout for email steps that name none; at most one per environment. */
    isDefault: boolean('is_default').notNull().default(false),
    /** Novu's layout control values: `{ email: { body, editorType } }`. */
    controlValues: jsonb('control_values')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** When off, `{{t.key}}` in its body is not looked up in its translations. */
    isTranslationEnabled: boolean('is_translation_enabled').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('layouts_env_layout_id_uq')
      .on(t.environmentId, t.layoutId)
      .where(sql`NOT ${t.deleted}`),
    uniqueIndex('layouts_env_default_uq')
      .on(t.environmentId)
      .where(sql`${t.isDefault} AND NOT ${t.deleted}`),
  ],
);

/** A context a trigger can name (`tenant:acme`): its data is available to templates as `context.<type>`. */
export const contexts = pgTable(
  'contexts',
  {
    ...tenantColumns(),
    type: text('type').notNull(),
    /** The context's own id within its type (Novu's `id`). */
    identifier: text('identifier').notNull(),
    data: jsonb('data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ...timestamps(),
  },
  (t) => [uniqueIndex('contexts_env_type_identifier_uq').on(t.environmentId, t.type, t.identifier)],
);

/** One value of an environment variable in one environment; secret values are stored encrypted. */
export interface StoredVariableValue {
  environmentId: string;
  value: string;
}

/** An organization's variable with a value per environment, read as `{{env.KEY}}` in templates. */
export const environmentVariables = pgTable(
  'environment_variables',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull().default('string'),
    isSecret: boolean('is_secret').notNull().default(false),
    values: jsonb('values')
      .$type<StoredVariableValue[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps(),
  },
  (t) => [uniqueIndex('environment_variables_org_key_uq').on(t.organizationId, t.key)],
);

export type LayoutRow = typeof layouts.$inferSelect;
export type ContextRow = typeof contexts.$inferSelect;
export type EnvironmentVariableRow = typeof environmentVariables.$inferSelect;
