import { Injectable } from '@nestjs/common';
import { Clock, DomainError, isEmailAddress, isId, type DashboardRole } from '#common';
import { DashboardUserRepository, EnvironmentRepository, type DashboardUser } from '#dal';
import { hashPassword } from './passwords.js';
import { newSecretToken, secretTokenHash } from './secret-tokens.js';

/** A setup link printed at boot stays usable this long (a later boot without users prints a new one). */
const SETUP_TOKEN_TTL_MS = 24 * 3600 * 1000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Dashboard users: created with a role, listed, re-roled and removed (both end their sessions). */
@Injectable()
export class DashboardUsersService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly environments: EnvironmentRepository,
    private readonly clock: Clock,
  ) {}

  async create(
    organizationId: string,
    values: { email: string; password: string; role: DashboardRole },
  ): Promise<DashboardUser> {
    const email = normalizeEmail(values.email);
    if (!isEmailAddress(email)) throw DomainError.validation('email', 'email must be one email address', values.email);
    const created = await this.users.create(organizationId, {
      email,
      passwordHash: await hashPassword(values.password),
      role: values.role,
    });
    if (!created) throw new DomainError('CONFLICT', `A dashboard user with email ${email} already exists`);
    return created;
  }

  list(organizationId: string): Promise<DashboardUser[]> {
    return this.users.list(organizationId);
  }

  async setRole(organizationId: string, id: string, role: DashboardRole): Promise<DashboardUser> {
    const user = await this.find(organizationId, id);
    // The same role again is no change: the user's sessions stay.
    if (user.role === role) return user;
    if (user.role === 'admin') await this.assertNotLastAdmin(organizationId);
    return (await this.users.setRole(organizationId, id, role)) ?? this.notFound(id);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const user = await this.find(organizationId, id);
    if (user.role === 'admin') await this.assertNotLastAdmin(organizationId);
    if (!(await this.users.delete(organizationId, id))) this.notFound(id);
  }

  async findByEmail(organizationId: string, email: string): Promise<DashboardUser> {
    const user = await this.users.findByEmail(normalizeEmail(email));
    return user && user.organizationId === organizationId ? user : this.notFound(email);
  }

  /**
   * A one-time token for the first admin's setup link, when no dashboard user exists yet; undefined
   * otherwise. Its hash is stored, so the link works on any api process until it is used or expires.
   */
  async issueSetupToken(): Promise<string | undefined> {
    if (await this.users.anyExists()) return undefined;
    const now = this.clock.now();
    await this.users.deleteExpiredSetupTokens(now);
    const token = newSecretToken();
    await this.users.addSetupToken(secretTokenHash(token), new Date(now.getTime() + SETUP_TOKEN_TTL_MS));
    return token;
  }

  /** The first admin, from a setup link's token: refused once any user exists. */
  async completeSetup(token: string, values: { email: string; password: string }): Promise<DashboardUser> {
    const email = normalizeEmail(values.email);
    if (!isEmailAddress(email)) throw DomainError.validation('email', 'email must be one email address', values.email);
    const admin = await this.users.createFirstAdmin(
      await this.firstOrganizationId(),
      secretTokenHash(token),
      this.clock.now(),
      {
        email,
        passwordHash: await hashPassword(values.password),
      },
    );
    if (!admin) throw new DomainError('FORBIDDEN', 'This setup link is unknown, expired or already used');
    return admin;
  }

  private async find(organizationId: string, id: string): Promise<DashboardUser> {
    const user = isId(id) ? await this.users.findById(organizationId, id) : undefined;
    return user ?? this.notFound(id);
  }

  /** An organization without an admin could never manage its users again. */
  private async assertNotLastAdmin(organizationId: string): Promise<void> {
    const admins = (await this.users.list(organizationId)).filter((user) => user.role === 'admin');
    if (admins.length <= 1) throw new DomainError('CONFLICT', 'The last admin cannot be removed or demoted');
  }

  /** The organization of a single-team deployment (the CLI's users and the first admin's). */
  async firstOrganizationId(): Promise<string> {
    const id = await this.environments.findFirstOrganizationId();
    if (!id) throw new DomainError('NOT_FOUND', 'No organization exists yet: start the service once first');
    return id;
  }

  private notFound(id: string): never {
    throw new DomainError('NOT_FOUND', `Dashboard user ${id} not found`);
  }
}
