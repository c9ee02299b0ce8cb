import type { AddressInfo } from 'node:net';
import { createLogger, type AppConfig } from '#common';
import { DashboardUsersService, TenancyService } from '#application';
import { announceBoot, developmentKeyLine, localUrl } from './boot-banner.js';
import { DASHBOARD_PATH } from './dashboard-app/dashboard-app.js';
import { InboxDemoPage } from './inbox-demo/inbox-demo-page.js';
import { prepareRuntime } from './runtime.js';
import { LoadWorkflowsDirectoryUseCase } from './workflows/use-cases/load-workflows-directory.use-case.js';
import { createServer } from './server.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

/** Boots one process of the service with a checked configuration, and stops it on SIGTERM or SIGINT. */
export async function startService(config: AppConfig): Promise<void> {
  // A person at a terminal reads the logs; anything else (CI, containers, tests) parses them.
  const pretty = process.stdout.isTTY === true;
  const logger = createLogger(config.logLevel, { pretty });
  const runtime = await prepareRuntime(config, logger);
  const app = await createServer(runtime);
  await app.init();

  // Keys are the api's business; a worker has no HTTP routes that need them.
  const developmentKey =
    config.role === 'worker'
      ? undefined
      : (await app.get(TenancyService).ensureFirstBoot(config.apiKey)).createdDevelopmentKey;
  try {
    // Only the api loads WORKFLOWS_DIR, so an api and a worker booting together do not both write it.
    if (config.workflowsDir && config.role !== 'worker') await app.get(LoadWorkflowsDirectoryUseCase).execute();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // The raw key is stored nowhere: a boot that created it and then failed still shows it.
    if (developmentKey) process.stderr.write(`${developmentKeyLine(developmentKey)}\n`);
    throw error;
  }
  // From the moment /health can answer: a SIGTERM sent as soon as the service is up (an orchestrator, a
  // test) stops it gracefully instead of killing it.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown deadline passed, exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      // Stops accepting, lets in-flight requests finish, closes workers after their running jobs.
      await app.close();
      await runtime.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  const url = localUrl(config.host, (app.getHttpServer().address() as AddressInfo).port);
  // In the fragment, which browsers never send: the token stays out of access logs and proxies.
  const setupToken = config.role === 'worker' ? undefined : await app.get(DashboardUsersService).issueSetupToken();
  announceBoot(
    logger,
    pretty,
    {
      url,
      role: config.role,
      inboxDemoUrl: config.role === 'worker' ? undefined : await app.get(InboxDemoPage).exampleUrl(url),
      dashboardUrl: config.role !== 'worker' && config.dashboardEnabled ? `${url}${DASHBOARD_PATH}` : undefined,
      developmentKey,
      dashboardSetupUrl: setupToken && `${url}/dashboard/setup#token=${setupToken}`,
    },
    { port: config.port, role: config.role, queue: runtime.queueBackend.kind, embedded: Boolean(runtime.embedded) },
  );
}
