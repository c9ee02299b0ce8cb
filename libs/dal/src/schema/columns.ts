import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every tenant-owned row carries. */
export const tenantColumns = () => ({
  id: uuid('id').primaryKey(),
  environmentId: uuid('environment_id').notNull(),
  organizationId: uuid('organization_id').notNull(),
});

export const timestamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
