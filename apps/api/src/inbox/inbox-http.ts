import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '#common';

const INBOX_PREFIX = '/v1/inbox/';

/** The headers @novu/js sends from a browser. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Novu-API-Version',
  'Novu-Client-Version',
  'Novu-Application-Identifier',
];

function isInboxPath(url: string): boolean {
  return url.startsWith(INBOX_PREFIX) || url === '/v1/inbox';
}

/**
 * @novu/js sends `Content-Type: application/json` on every call, also on the PATCH and DELETE calls
 * that carry no body, which Fastify's JSON parser refuses (400): an inbox request without a body is
 * read as one without a content type.
 */
function dropContentTypeOfEmptyBody(request: FastifyRequest, done: () => void): void {
  const { headers } = request;
  const empty =
    headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0');
  if (empty && isInboxPath(request.url)) delete headers['content-type'];
  done();
}

/**
 * The browser side of the inbox routes. CORS for the browser's inbox routes only: API-key routes never answer a browser's cross-origin
 * request (their key must stay on a server), so their requests get no CORS headers and their
 * preflights a 404.
 */
export async function registerInboxHttp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, _reply, done) => dropContentTypeOfEmptyBody(request, done));
  const inbox: FastifyCorsOptions = {
    origin: config.inboxAllowedOrigins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'],
    maxAge: 600,
  };
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) =>
      callback(null, isInboxPath(request.url) ? inbox : { origin: false }),
  });
}
