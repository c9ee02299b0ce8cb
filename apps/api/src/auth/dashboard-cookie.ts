import type { FastifyRequest } from 'fastify';

const SESSION_COOKIE = 'dashboard_session';
export const CSRF_HEADER = 'x-csrf-token';
export const ENVIRONMENT_HEADER = 'x-environment-id';

/** The session cookie's value, when the Cookie header has one. */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === SESSION_COOKIE && value.length > 0) return value.join('=');
  }
  return undefined;
}

/**
 * httpOnly: page scripts never read it; SameSite=Strict: no other site's page sends it; Secure when
 * the request came over HTTPS (behind TRUST_PROXY's proxies, as X-Forwarded-Proto says), so the
 * plain-HTTP quick start on localhost still signs in.
 */
export function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

export function clearedSessionCookie(request: FastifyRequest): string {
  return sessionCookie(request, '', 0);
}
