import 'reflect-metadata';
import { ConfigError, loadConfig, type AppConfig, type Role } from '#common';

/**
 * Starts one process of the service in the given role (ROLE from the environment by default). The
 * configuration is checked before the application's modules load, so a wrong variable is reported in
 * a fraction of the time a boot takes.
 */
export async function runService(roleOverride?: Role): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(roleOverride ? { ROLE: roleOverride } : {});
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { startService } = await import('./service.js');
  await startService(config);
}

const isEntryPoint = import.meta.url === `file://${process.argv[1]}`;
if (isEntryPoint) {
  runService().catch((error) => {
    process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
