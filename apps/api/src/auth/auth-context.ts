import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';

/** Who is calling: resolved from the API key by the guard, attached to the request. */
export interface AuthContext {
  apiKeyId: string;
  environmentId: string;
  organizationId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export const IS_PUBLIC = 'isPublic';
/** Marks a route that needs no API key (health, metrics). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Injects the caller's AuthContext into a controller method. */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const request = context.switchToHttp().getRequest<{ auth?: AuthContext }>();
  if (!request.auth) throw new Error('Auth decorator used on a public route');
  return request.auth;
});
