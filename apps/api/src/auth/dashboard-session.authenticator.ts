import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, isId, roleIncludes, type DashboardRole } from '#common';
import { DashboardSessionsService, csrfTokenOf, sameSecret } from '#application';
import { EnvironmentRepository, type DashboardUser } from '#dal';
import { ACCESS_AREAS, isWrite, roleNeeded, type AccessAreaName } from './access-areas.js';
import type { AuthContext, DashboardCaller } from './auth-context.js';
import { CSRF_HEADER, ENVIRONMENT_HEADER, readSessionCookie } from './dashboard-cookie.js';

/**
 * A request carrying the dashboard's session cookie: a live session, the CSRF token on every write
 * (a cookie rides along on any request the browser makes; the header only on the dashboard's own),
 * a role that covers the route's area, and for environment routes an environment of the user's
 * organization named in X-Environment-Id.
 */
@Injectable()
export class DashboardSessionAuthenticator {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly environments: EnvironmentRepository,
  ) {}

  async authenticate(
    request: FastifyRequest,
    token: string,
    area: AccessAreaName,
  ): Promise<{ caller: DashboardCaller; auth?: AuthContext }> {
    const live = await this.sessions.authenticate(token);
    if (!live) throw new DomainError('UNAUTHORIZED', 'The dashboard session has expired or was ended: sign in again');
    const csrfToken = csrfTokenOf(token);
    const sent = request.headers[CSRF_HEADER];
    if (isWrite(request.method) && !(typeof sent === 'string' && sameSecret(sent, csrfToken))) {
      throw new DomainError('FORBIDDEN', 'A dashboard write must send the session’s CSRF token in X-CSRF-Token');
    }
    const needed = roleNeeded(area, request.method);
    if (!roleIncludes(live.user.role, needed)) {
      throw new DomainError('FORBIDDEN', `This needs the ${needed} role; you are ${live.user.role}`);
    }
    const caller = { ...live, csrfToken };
    if (!ACCESS_AREAS[area].environmentScoped) return { caller };
    return { caller, auth: await this.environmentOf(request, live.user) };
  }

  /**
   * The role of the live session a request's cookie holds, if any: for a route with its own
   * authentication (`/metrics`) that also lets a dashboard admin in. A read only: no CSRF token.
   */
  async roleOf(request: FastifyRequest): Promise<DashboardRole | undefined> {
    const token = readSessionCookie(request);
    return token ? (await this.sessions.authenticate(token))?.user.role : undefined;
  }

  private async environmentOf(request: FastifyRequest, user: DashboardUser): Promise<AuthContext> {
    const id = request.headers[ENVIRONMENT_HEADER];
    if (typeof id !== 'string' || id === '') {
      throw new DomainError('BAD_REQUEST', 'A dashboard session names the environment it acts on in X-Environment-Id');
    }
    const environment = isId(id)
      ? await this.environments.findOrganizationEnvironment(user.organizationId, id)
      : undefined;
    if (!environment) throw new DomainError('FORBIDDEN', `Environment ${id} is not one of your organization’s`);
    return { actorId: user.id, environmentId: environment.id, organizationId: environment.organizationId };
  }
}
