import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, gt, lte } from 'drizzle-orm';
import { newId } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { dashboardSessions, dashboardUsers, type DashboardSession, type DashboardUser } from '../schema/index.js';

export interface NewDashboardSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null;
  clientAddress: string | null;
}

/** A session that has not expired, with its user as the user is now. */
export interface LiveDashboardSession {
  session: DashboardSession;
  user: DashboardUser;
}

/** Signed-in dashboard browsers; every method but the cookie's lookup names the user. */
@Injectable()
export class DashboardSessionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async create(values: NewDashboardSession): Promise<DashboardSession> {
    const [row] = await this.db
      .insert(dashboardSessions)
      .values({ id: newId(), ...values })
      .returning();
    return row;
  }

  /** The cookie's lookup, before anyone is known: the token names its session. */
  async findLive(tokenHash: string, now: Date): Promise<LiveDashboardSession | undefined> {
    const [row] = await this.db
      .select({ session: dashboardSessions, user: dashboardUsers })
      .from(dashboardSessions)
      .innerJoin(dashboardUsers, eq(dashboardUsers.id, dashboardSessions.userId))
      .where(and(eq(dashboardSessions.tokenHash, tokenHash), gt(dashboardSessions.expiresAt, now)))
      .limit(1);
    return row;
  }

  async listLive(userId: string, now: Date): Promise<DashboardSession[]> {
    return this.db
      .select()
      .from(dashboardSessions)
      .where(and(eq(dashboardSessions.userId, userId), gt(dashboardSessions.expiresAt, now)))
      .orderBy(desc(dashboardSessions.createdAt));
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(dashboardSessions)
      .where(and(eq(dashboardSessions.userId, userId), eq(dashboardSessions.id, id)))
      .returning({ id: dashboardSessions.id });
    return deleted.length > 0;
  }

  /** A user's expired sessions, removed when the user signs in again (nothing else reads them). */
  async deleteExpired(userId: string, now: Date): Promise<void> {
    await this.db
      .delete(dashboardSessions)
      .where(and(eq(dashboardSessions.userId, userId), lte(dashboardSessions.expiresAt, now)));
  }
}
