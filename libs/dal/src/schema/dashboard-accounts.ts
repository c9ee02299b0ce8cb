import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { DashboardRole } from '#common';
import { timestamps, tz } from './columns.js';
import { organizations } from './organizations.js';

/** A person who signs in to the operator dashboard; belongs to one organization. */
export const dashboardUsers = pgTable(
  'dashboard_users',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** Lower-cased, and unique across organizations: a login names an address, not an organization. */
    email: text('email').notNull(),
    /** An Argon2id PHC string (algorithm, parameters and salt included), never the password. */
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<DashboardRole>().notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('dashboard_users_email_uq').on(t.email),
    index('dashboard_users_organization_idx').on(t.organizationId),
    // DASHBOARD_ROLES of libs/common.
    check('dashboard_users_role_ck', sql`${t.role} IN ('viewer', 'editor', 'admin')`),
  ],
);

/**
 * A signed-in browser. Deleted with its user; deleted by a role change, so a changed role never
 * rides on a session opened under the old one.
 */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    /** sha256 hex of the cookie's token: a leaked table opens no session. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: tz('expires_at').notNull(),
    userAgent: text('user_agent'),
    clientAddress: text('client_address'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dashboard_sessions_token_hash_uq').on(t.tokenHash),
    index('dashboard_sessions_user_idx').on(t.userId),
  ],
);

/** One-time links that create the first admin, printed at a boot that found no dashboard user. */
export const dashboardSetupTokens = pgTable('dashboard_setup_tokens', {
  /** sha256 hex of the token in the link. */
  tokenHash: text('token_hash').primaryKey(),
  expiresAt: tz('expires_at').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type DashboardUser = typeof dashboardUsers.$inferSelect;
export type DashboardSession = typeof dashboardSessions.$inferSelect;
