import { sql } from 'drizzle-orm';
import { pgTable, unique, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, timestamps, jsonb } from './columns.js';

export interface StoredSchedule {
  isEnabled: boolean;
  weeklySchedule?: Record<string, { isEnabled: boolean; hours?: { start: string; end: string }[] }>;
}

export const preferences = pgTable(
  'preferences',
  {
    ...tenantColumns(),
    /** Internal subscriber id. */
    subscriberId: uuid('subscriber_id').notNull(),
    /** null = the subscriber's global preference. */
    workflowId: uuid('workflow_id'),
    channels: jsonb('channels')
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    schedule: jsonb('schedule').$type<StoredSchedule | null>(),
    ...timestamps(),
  },
  (t) => [
    unique('preferences_env_subscriber_workflow_uq')
      .on(t.environmentId, t.subscriberId, t.workflowId)
      .nullsNotDistinct(),
  ],
);

export type PreferenceRow = typeof preferences.$inferSelect;
