import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { IntegrationResponseDto } from './dto/integration.dto.js';

/** An integration answer without its credentials (an Idempotency-Key's replay, a dashboard session). */
export const withoutCredentials = (body: unknown): unknown =>
  Array.isArray(body) ? body.map(withoutCredentials) : { ...(body as IntegrationResponseDto), credentials: {} };

/**
 * In the dashboard an integration's credentials are write-only: a session, whatever its role, never
 * reads them back (a viewer would otherwise read every provider's secrets). An API key, which may do
 * everything in its environment, still reads them, as Novu's clients expect.
 */
@Injectable()
export class DashboardWithoutCredentials implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return request.dashboardCaller ? next.handle().pipe(map(withoutCredentials)) : next.handle();
  }
}
