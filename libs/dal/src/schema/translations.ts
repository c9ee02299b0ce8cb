import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { jsonb, tenantColumns, timestamps } from './columns.js';

/** What a translation belongs to: a workflow (by trigger identifier) or a layout (by layoutId). */
export type TranslationResourceType = 'workflow' | 'layout';

/** A translation's content: keys to strings, or to nested objects of the same. */
export interface TranslationContent {
  [key: string]: string | TranslationContent;
}

/**
 * One locale of one workflow's or layout's translations. The resource is named by the key it shares
 * across environments (trigger identifier, layoutId), so publishing copies translations by that key.
 */
export const translations = pgTable(
  'translations',
  {
    ...tenantColumns(),
    resourceType: text('resource_type').$type<TranslationResourceType>().notNull(),
    resourceId: text('resource_id').notNull(),
    locale: text('locale').notNull(),
    content: jsonb('content')
      .$type<TranslationContent>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('translations_env_resource_locale_uq').on(t.environmentId, t.resourceType, t.resourceId, t.locale),
  ],
);

export type TranslationRow = typeof translations.$inferSelect;
