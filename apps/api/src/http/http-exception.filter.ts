import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DomainError, newId } from '#common';
import { isDatabaseUnavailable, pgErrorCode } from '#dal';
import { reasonPhrase, type ErrorBody } from './error-body.js';
import { ReplayedResponse } from './idempotency/idempotency.guard.js';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

const ROUTER_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
};

/** Text PostgreSQL refuses to store (NUL, invalid encodings): bad input, not a server fault. */
function isUnstorableInput(exception: unknown): boolean {
  const code = pgErrorCode(exception);
  return code === '22021' || code === '22P05';
}

/**
 * The message of a Nest HttpException: its response when that is text, else the response's `message`
 * (text, or a list of texts joined by commas), else the exception's own message.
 */
function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((item) => typeof item === 'string')) return message.join(',');
  return exception.message;
}

/**
 * Maps every thrown error to the error body; the only place HTTP statuses are chosen for failures.
 * Also sends an Idempotency-Key replay, which the guard raises to skip the handler.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (exception instanceof ReplayedResponse) {
      reply.header('idempotency-replay', 'true').status(exception.status).send(exception.body);
      return;
    }
    const { body, headers } = this.toBody(exception, request);
    if (reply.sent) return;
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  }

  toBody(exception: unknown, request: FastifyRequest): { body: ErrorBody; headers: Record<string, string> } {
    const base = {
      path: request.url.length > 2_048 ? `${request.url.slice(0, 2_048)}…` : request.url,
      timestamp: new Date().toISOString(),
    };
    if (exception instanceof DomainError) {
      const body: ErrorBody = {
        ...exception.existing,
        statusCode: exception.status,
        message: exception.message,
        error: reasonPhrase(exception.status),
        ...base,
      };
      if (exception.fieldErrors) body.errors = exception.fieldErrors;
      const headers = { ...(exception.headers ?? {}) };
      if (exception.status === 429 && !headers['retry-after']) headers['retry-after'] = '1';
      return { body, headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return {
        body: { statusCode: status, message: httpExceptionMessage(exception), error: reasonPhrase(status), ...base },
        headers: {},
      };
    }
    if (isUnstorableInput(exception)) {
      return {
        body: {
          statusCode: 422,
          message: 'The request contains characters that cannot be stored',
          error: reasonPhrase(422),
          ...base,
        },
        headers: {},
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ reqId: request.id, err: exception }, 'database unavailable');
      return {
        body: { statusCode: 503, message: 'Database unavailable, retry shortly', error: reasonPhrase(503), ...base },
        headers: { 'retry-after': '5' },
      };
    }
    const fastifyError = exception as FastifyLikeError;
    if (fastifyError?.code?.startsWith('FST_') && fastifyError.statusCode && fastifyError.statusCode < 500) {
      const status =
        fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 400
          : fastifyError.statusCode;
      // The router's own messages repeat the whole (possibly huge, possibly hostile) URL.
      const message = ROUTER_MESSAGES[fastifyError.code] ?? fastifyError.message ?? reasonPhrase(status);
      return { body: { statusCode: status, message, error: reasonPhrase(status), ...base }, headers: {} };
    }
    if (exception instanceof SyntaxError && (exception as FastifyLikeError).statusCode === 400) {
      return {
        body: { statusCode: 400, message: 'Malformed JSON body', error: reasonPhrase(400), ...base },
        headers: {},
      };
    }
    const errorId = newId();
    this.logger.error({ reqId: request.id, errorId, err: exception }, 'unhandled error');
    return {
      body: { statusCode: 500, message: 'Internal server error', error: reasonPhrase(500), errorId, ...base },
      headers: {},
    };
  }
}
