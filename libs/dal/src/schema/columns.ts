import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/**
 * A jsonb column that takes the value as the pg driver returns it, already parsed. drizzle-orm's own
 * jsonb parses a string value a second time, so stored text such as "42", "true" or "[1]" came back
 * as a number, a boolean or an array, and every other string cost a thrown SyntaxError.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
});
