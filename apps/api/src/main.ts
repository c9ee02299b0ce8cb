import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { ConfigError, createLogger, loadConfig, type Role } from '#common';
import { TenancyService } from '#application';
import { announceBoot, developmentKeyLine, localUrl } from './boot-banner.js';
import { InboxDemoPage } from './inbox-demo/inbox-demo-page.js';
import { prepareRuntime } from './runtime.js';
import { LoadWorkflowsDirectoryUseCase } from './workflows/use-cases/load-workflows-directory.use-case.js';
import { createServer } from './server.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

/** Starts one process of the service in the given role (ROLE from the environment by default). */
export async function runService(roleOverride?: Role): Promise<void> {
  let config;
  try {
    config = loadConfig(roleOverride ? { ROLE: roleOverride } : {});
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
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
  const url = localUrl(config.host, (app.getHttpServer().address() as AddressInfo).port);
  announceBoot(
    logger,
    pretty,
    {
      url,
      role: config.role,
      inboxDemoUrl: config.role === 'worker' ? undefined : await app.get(InboxDemoPage).exampleUrl(url),
      developmentKey,
    },
    { port: config.port, role: config.role, queue: runtime.queueBackend.kind, embedded: Boolean(runtime.embedded) },
  );

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
}

const isEntryPoint = import.meta.url === `file://${process.argv[1]}`;
if (isEntryPoint) {
  runService().catch((error) => {
    process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
