import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { DomainError, httpRequestDuration, newId, PinoNestLogger, type Clock } from '#common';
import { AppModule } from './app.module.js';
import { HttpExceptionFilter } from './http/http-exception.filter.js';
import { parseQueryString } from './http/query-arrays.js';
import { installMultipart } from './http/multipart.js';
import {
  assertAcceptableBody,
  assertAcceptableUrl,
  bodyLimitFor,
  installLoadShedding,
  largestBodyLimit,
} from './http/request-admission.js';
import { setupSwagger } from './http/swagger.js';
import { registerDashboardApp } from './dashboard-app/dashboard-app.js';
import { registerInboxHttp } from './inbox/inbox-http.js';
import { createValidationPipe } from './http/validation.js';
import type { Runtime } from './runtime.js';

const REQUEST_ID_HEADER = 'x-request-id';
const MAX_INCOMING_REQUEST_ID = 200;
/** Ids and keys in paths are far shorter; longer ones get a 414 in the usual error body. */
const MAX_PATH_PARAMETER_LENGTH = 1_000;

function requestIdFrom(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && incoming.length > 0 && incoming.length <= MAX_INCOMING_REQUEST_ID
    ? incoming
    : newId();
}

/** Builds the Nest application (not yet listening) for a prepared runtime. */
export async function createServer(
  runtime: Runtime,
  options: { clock?: Clock; swaggerUi?: boolean } = {},
): Promise<NestFastifyApplication> {
  const { config, logger } = runtime;
  const filter = new HttpExceptionFilter(logger);
  const adapter = new FastifyAdapter({
    // A malformed URL or an over-long path parameter is answered by the router before Nest sees the
    // request: give those answers the same error body as every other one.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { body, headers } = filter.toBody(error, request);
      void reply.headers(headers).status(body.statusCode).type('application/json; charset=utf-8').send(body);
    },
    bodyLimit: largestBodyLimit(config),
    genReqId: requestIdFrom,
    // request.ip: the socket's address, or behind TRUST_PROXY's proxies the X-Forwarded-For entry they added.
    trustProxy: config.trustProxy,
    // Keeps a slow client from holding a connection forever; long enough for bulk triggers.
    requestTimeout: 30_000,
    return503OnClosing: true,
    routerOptions: { querystringParser: parseQueryString, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(runtime, options), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(filter);
  app.useGlobalPipes(createValidationPipe());

  const fastify = app.getHttpAdapter().getInstance();
  // Each route's limit on the bytes its body parser actually reads, so a chunked body (no
  // Content-Length) is held to the same limit; routes are registered by app.init(), after this.
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit = bodyLimitFor(route.url, config);
  });
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const length = Number(request.headers['content-length'] ?? 0);
    const limit = bodyLimitFor(request.url, config);
    if (length > limit) throw new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`);
    assertAcceptableUrl(request.url);
  });
  installLoadShedding(fastify, config.maxInFlightRequests);
  installMultipart(fastify);
  await registerInboxHttp(app, config);
  await registerDashboardApp(app, config, logger);
  fastify.addHook('preValidation', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    assertAcceptableBody(request.body);
    done();
  });
  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    logger.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });

  if (config.role !== 'worker') setupSwagger(app, { ui: options.swaggerUi ?? true });
  return app;
}
