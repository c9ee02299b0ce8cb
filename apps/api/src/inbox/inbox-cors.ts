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
 * CORS for the browser's inbox routes only: API-key routes never answer a browser's cross-origin
 * request (their key must stay on a server), so their requests get no CORS headers and their
 * preflights a 404.
 */
export async function registerInboxCors(app: NestFastifyApplication, config: AppConfig): Promise<void> {
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
