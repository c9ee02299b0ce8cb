import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { newId, type DashboardRole } from '#common';
import { isUniqueViolation, type Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { dashboardSessions, dashboardSetupTokens, dashboardUsers, type DashboardUser } from '../schema/index.js';

export interface NewDashboardUser {
  email: string;
  passwordHash: string;
  role: DashboardRole;
}

/** Arbitrary constant naming the first-admin lock ("ADMN"). */
const FIRST_ADMIN_LOCK_KEY = 0x41444d4e;

/** Dashboard users of an organization, and the setup tokens that create the first one. */
@Injectable()
export class DashboardUserRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Undefined when the address is taken. */
  async create(organizationId: string, user: NewDashboardUser): Promise<DashboardUser | undefined> {
    try {
      const [row] = await this.db
        .insert(dashboardUsers)
        .values({ id: newId(), organizationId, ...user })
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** The login's lookup: an address names its organization, so none is given. */
  async findByEmail(email: string): Promise<DashboardUser | undefined> {
    const [row] = await this.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, email)).limit(1);
    return row;
  }

  async findById(organizationId: string, id: string): Promise<DashboardUser | undefined> {
    const [row] = await this.db
      .select()
      .from(dashboardUsers)
      .where(and(eq(dashboardUsers.organizationId, organizationId), eq(dashboardUsers.id, id)))
      .limit(1);
    return row;
  }

  async list(organizationId: string): Promise<DashboardUser[]> {
    return this.db
      .select()
      .from(dashboardUsers)
      .where(eq(dashboardUsers.organizationId, organizationId))
      .orderBy(asc(dashboardUsers.email));
  }

  /** Its sessions go with it (ON DELETE CASCADE). */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(dashboardUsers)
      .where(and(eq(dashboardUsers.organizationId, organizationId), eq(dashboardUsers.id, id)))
      .returning({ id: dashboardUsers.id });
    return deleted.length > 0;
  }

  /** A new role ends the user's sessions in the same transaction: none outlives the role it was opened with. */
  async setRole(organizationId: string, id: string, role: DashboardRole): Promise<DashboardUser | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(dashboardUsers)
        .set({ role, updatedAt: sql`now()` })
        .where(and(eq(dashboardUsers.organizationId, organizationId), eq(dashboardUsers.id, id)))
        .returning();
      if (row) await tx.delete(dashboardSessions).where(eq(dashboardSessions.userId, id));
      return row;
    });
  }

  /** Other sessions of the user end: a new password must lock out whoever knew the old one. */
  async setPassword(organizationId: string, id: string, passwordHash: string, keepSessionId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(dashboardUsers)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(and(eq(dashboardUsers.organizationId, organizationId), eq(dashboardUsers.id, id)));
      await tx
        .delete(dashboardSessions)
        .where(and(eq(dashboardSessions.userId, id), sql`${dashboardSessions.id} <> ${keepSessionId}`));
    });
  }

  async anyExists(): Promise<boolean> {
    const [row] = await this.db.select({ id: dashboardUsers.id }).from(dashboardUsers).limit(1);
    return row !== undefined;
  }

  async addSetupToken(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(dashboardSetupTokens).values({ tokenHash, expiresAt });
  }

  /**
   * The first admin, made with a valid setup token while no user exists; the tokens are then spent.
   * Undefined when the token is unknown or expired, or a user exists. The lock keeps two setups that
   * run at once from both finding no user.
   */
  async createFirstAdmin(
    organizationId: string,
    tokenHash: string,
    now: Date,
    user: Omit<NewDashboardUser, 'role'>,
  ): Promise<DashboardUser | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
      const [token] = await tx
        .select({ tokenHash: dashboardSetupTokens.tokenHash })
        .from(dashboardSetupTokens)
        .where(and(eq(dashboardSetupTokens.tokenHash, tokenHash), gt(dashboardSetupTokens.expiresAt, now)));
      const [existing] = await tx.select({ id: dashboardUsers.id }).from(dashboardUsers).limit(1);
      if (!token || existing) return undefined;
      await tx.delete(dashboardSetupTokens);
      const [row] = await tx
        .insert(dashboardUsers)
        .values({ id: newId(), organizationId, role: 'admin', ...user })
        .returning();
      return row;
    });
  }

  async deleteExpiredSetupTokens(now: Date): Promise<void> {
    await this.db.delete(dashboardSetupTokens).where(lte(dashboardSetupTokens.expiresAt, now));
  }
}
