import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, DomainError, isId } from '#common';
import {
  DashboardSessionRepository,
  DashboardUserRepository,
  type DashboardSession,
  type DashboardUser,
  type LiveDashboardSession,
} from '#dal';
import { normalizeEmail } from './dashboard-users.service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { csrfTokenOf, newSecretToken, secretTokenHash } from './secret-tokens.js';

/** Where a login came from, shown in the user's list of sessions. */
export interface LoginClient {
  userAgent: string | null;
  clientAddress: string | null;
}

export interface SignedIn {
  /** The cookie's value: given once, stored only as its hash. */
  token: string;
  csrfToken: string;
  session: DashboardSession;
  user: DashboardUser;
}

/** Logins, the session behind each dashboard request, and a user's own sessions. */
@Injectable()
export class DashboardSessionsService {
  /** Verified when the address is unknown, so an unknown address takes as long as a wrong password. */
  private decoyHash?: Promise<string>;

  constructor(
    private readonly sessions: DashboardSessionRepository,
    private readonly users: DashboardUserRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** One message for an unknown address and a wrong password: a login does not tell which addresses exist. */
  async signIn(email: string, password: string, client: LoginClient): Promise<SignedIn> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    const matches = await verifyPassword(
      user?.passwordHash ?? (await (this.decoyHash ??= hashPassword(newSecretToken()))),
      password,
    );
    if (!user || !matches) throw new DomainError('UNAUTHORIZED', 'Wrong email or password');
    const now = this.clock.now();
    await this.sessions.deleteExpired(user.id, now);
    const token = newSecretToken();
    const session = await this.sessions.create({
      userId: user.id,
      tokenHash: secretTokenHash(token),
      expiresAt: new Date(now.getTime() + this.config.dashboardSessionTtlMinutes * 60_000),
      ...client,
    });
    return { token, csrfToken: csrfTokenOf(token), session, user };
  }

  /**
   * The live session of a cookie's token, read on every request, never cached: a revoked session,
   * a removed user or a changed role takes effect at once on every api process.
   */
  authenticate(token: string): Promise<LiveDashboardSession | undefined> {
    return this.sessions.findLive(secretTokenHash(token), this.clock.now());
  }

  list(userId: string): Promise<DashboardSession[]> {
    return this.sessions.listLive(userId, this.clock.now());
  }

  async revoke(userId: string, sessionId: string): Promise<void> {
    const revoked = isId(sessionId) && (await this.sessions.delete(userId, sessionId));
    if (!revoked) throw new DomainError('NOT_FOUND', `Session ${sessionId} not found`);
  }

  /** A new password ends the user's other sessions; the one that changed it stays signed in. */
  async changePassword(current: LiveDashboardSession, currentPassword: string, newPassword: string): Promise<void> {
    const { user, session } = current;
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw DomainError.validation('currentPassword', 'currentPassword is wrong');
    }
    await this.users.setPassword(user.organizationId, user.id, await hashPassword(newPassword), session.id);
  }
}
