import 'reflect-metadata';
import { ConfigError, createLogger, loadConfig, type Role } from '#common';
import { LoadWorkflowsDirectoryUseCase, TenancyService } from '#application';
import { prepareRuntime } from './runtime.js';
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
  const logger = createLogger(config.logLevel);
  const runtime = await prepareRuntime(config, logger);
  const app = await createServer(runtime);
  await app.init();

  // Keys are the api's business; a worker has no HTTP routes that need them.
  if (config.role !== 'worker') {
    const firstBoot = await app.get(TenancyService).ensureFirstBoot(config.apiKey);
    if (firstBoot.createdDevelopmentKey) {
      // Printed once, on the boot that created it: the raw key is not stored anywhere.
      process.stdout.write(`\nDevelopment API key (shown once, keep it): ${firstBoot.createdDevelopmentKey}\n\n`);
    }
  }
  // Only the api loads WORKFLOWS_DIR, so an api and a worker booting together do not both write it.
  if (config.workflowsDir && config.role !== 'worker') await app.get(LoadWorkflowsDirectoryUseCase).execute();

  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { port: config.port, role: config.role, queue: runtime.queueBackend.kind, embedded: Boolean(runtime.embedded) },
    'service started',
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
