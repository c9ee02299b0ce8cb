import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { credentialsWithoutSecrets } from '#providers';
import type { IntegrationResponseDto } from './dto/integration.dto.js';

/** An integration answer without its credentials (an Idempotency-Key's replay). */
export const withoutCredentials = (body: unknown): unknown =>
  Array.isArray(body) ? body.map(withoutCredentials) : { ...(body as IntegrationResponseDto), credentials: {} };

const withoutSecrets = (body: unknown): unknown => {
  if (Array.isArray(body)) return body.map(withoutSecrets);
  const integration = body as IntegrationResponseDto;
  return { ...integration, credentials: credentialsWithoutSecrets(integration.providerId, integration.credentials) };
};

/**
 * In the dashboard an integration's secrets are write-only: a session, whatever its role, never reads
 * them back (a viewer would otherwise read every provider's secrets), only the credentials its provider
 * describes as not secret (a from address, a region). An API key, which may do everything in its
 * environment, still reads them all, as Novu's clients expect.
 */
@Injectable()
export class DashboardWithoutSecrets implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return request.dashboardCaller ? next.handle().pipe(map(withoutSecrets)) : next.handle();
  }
}
