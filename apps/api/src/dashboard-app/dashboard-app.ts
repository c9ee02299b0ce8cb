import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '#common';

/** Where the browser app lives under the service's origin; its client-side routes sit below it. */
export const DASHBOARD_PATH = '/dashboard';

/**
 * The app calls only this origin (its API and the inbox socket). Styles may be inline: the Novu Inbox the
 * subscriber page embeds injects its own. Email previews render in sandboxed `srcdoc` frames, which run no script.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The package's root, whether this file runs compiled (dist/apps/api/src/…, release/dist/…) or from its
 * TypeScript source in the tests: the nearest folder above with a package.json.
 */
function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('no package.json above the api’s files');
    folder = parent;
  }
  return folder;
}

/** `npm run build` writes the app here (apps/dashboard/vite.config.ts). */
function dashboardBuildDir(): string {
  return join(packageRoot(), 'dist', 'dashboard');
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return (
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      // The page names the current hashed assets: it is checked on every load, they never are.
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', PAGE_POLICY)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .send(html)
  );
}

/**
 * Serves the built dashboard: hashed assets under /dashboard/assets/ cached for a year (their name changes with
 * their content), and index.html for /dashboard and every path below it, so a deep link opens the app, whose
 * router shows the page. Nothing is registered when DASHBOARD_ENABLED=false, or when the app was not built.
 */
export async function registerDashboardApp(
  app: NestFastifyApplication,
  config: AppConfig,
  logger: Logger,
): Promise<void> {
  if (!config.dashboardEnabled || config.role === 'worker') return;
  const root = dashboardBuildDir();
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) {
    logger.warn({ root }, 'the dashboard is not built (npm run build): /dashboard is not served');
    return;
  }
  const html = readFileSync(indexFile, 'utf8');
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: `${DASHBOARD_PATH}/assets/`,
    decorateReply: false,
    index: false,
    // The build writes .br and .gz beside each asset; the client's Accept-Encoding picks one.
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
  });
  fastify.get(DASHBOARD_PATH, (_request, reply) => sendPage(reply, html));
  fastify.get(`${DASHBOARD_PATH}/*`, (_request, reply) => sendPage(reply, html));
}
