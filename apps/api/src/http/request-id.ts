import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Injects the request id (x-request-id) so a use case can log it beside its own identifiers. */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  String(context.switchToHttp().getRequest<FastifyRequest>().id),
);
