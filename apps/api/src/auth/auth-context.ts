import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { LiveDashboardSession } from '#dal';

/** Who is calling: resolved from the API key or the dashboard session by the guard, attached to the request. */
export interface AuthContext {
  /** The API key's id, or the dashboard user's: recorded as who deleted or created a row. */
  actorId: string;
  environmentId: string;
  organizationId: string;
}

/** The dashboard session behind a request that its cookie authenticated. */
export interface DashboardCaller extends LiveDashboardSession {
  /** What the session's writes must send in X-CSRF-Token. */
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
    dashboardCaller?: DashboardCaller;
  }
}

export const IS_PUBLIC = 'isPublic';
/** Marks a route that needs neither an API key nor a dashboard session (health, metrics, login). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Injects the caller's AuthContext into a controller method. */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const request = context.switchToHttp().getRequest<{ auth?: AuthContext }>();
  if (!request.auth) throw new Error('Auth decorator used on a public route');
  return request.auth;
});

/** Injects the dashboard session of a route whose access area admits no API key. */
export const Dashboard = createParamDecorator((_data: unknown, context: ExecutionContext): DashboardCaller => {
  const request = context.switchToHttp().getRequest<{ dashboardCaller?: DashboardCaller }>();
  if (!request.dashboardCaller) throw new Error('Dashboard decorator used on a route an API key may call');
  return request.dashboardCaller;
});
