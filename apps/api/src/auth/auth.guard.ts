import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '#common';
import { EnvironmentRepository, type ApiKeyOwner } from '#dal';
import { ApiKeyCache, hashApiKey } from '#application';
import { ACCESS_AREA, ACCESS_AREAS, type AccessAreaName } from './access-areas.js';
import { IS_PUBLIC, type AuthContext } from './auth-context.js';
import { readSessionCookie } from './dashboard-cookie.js';
import { DashboardSessionAuthenticator } from './dashboard-session.authenticator.js';

/**
 * Every route not marked @Public(): `Authorization: ApiKey <key>`, or else the dashboard's session
 * cookie, held to the route's access area. A header wins over a cookie: a browser never adds one
 * by itself, so such a request needs no CSRF token.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly environments: EnvironmentRepository,
    private readonly cache: ApiKeyCache,
    private readonly dashboard: DashboardSessionAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const area = this.reflector.getAllAndOverride<AccessAreaName | undefined>(ACCESS_AREA, targets);
    // A route in no area is a bug that test/dashboard-access.e2e.ts catches; until then nobody may use it.
    if (!area) throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} has no access area`);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (header !== undefined) {
      if (!ACCESS_AREAS[area].environmentScoped) {
        throw new DomainError(
          'FORBIDDEN',
          'This route is the dashboard’s: it takes a dashboard session, not an API key',
        );
      }
      request.auth = await this.apiKeyAuth(header);
      return true;
    }
    const token = readSessionCookie(request);
    if (!token) throw new DomainError('UNAUTHORIZED', 'Missing authorization header');
    const { caller, auth } = await this.dashboard.authenticate(request, token, area);
    request.dashboardCaller = caller;
    request.auth = auth;
    return true;
  }

  private async apiKeyAuth(header: string): Promise<AuthContext> {
    const [scheme, key] = header.split(' ');
    if (scheme !== 'ApiKey' || !key) throw new DomainError('UNAUTHORIZED', 'Invalid authentication scheme');
    const owner = await this.lookup(key.trim());
    if (!owner) throw new DomainError('UNAUTHORIZED', 'API Key not found');
    return { actorId: owner.apiKeyId, environmentId: owner.environmentId, organizationId: owner.organizationId };
  }

  private async lookup(key: string): Promise<ApiKeyOwner | undefined> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const owner = await this.environments.findOwnerOfKeyHash(hashApiKey(key));
    if (owner) this.cache.set(key, owner);
    return owner;
  }
}
