import 'reflect-metadata';
import { ConfigError, createLogger, loadConfig } from '#common';
import { EnvironmentRepository } from '#dal';
import { TenancyService } from '#application';
import { prepareRuntime } from './runtime.js';

const USAGE = 'usage: npm run cli -- api-key create --environment <Development|Production>';

/** Operator commands that need the database but not a running server. */
async function main(argv: string[]): Promise<number> {
  const [resource, action, flag, environmentName] = argv;
  if (resource !== 'api-key' || action !== 'create' || flag !== '--environment' || !environmentName) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger('warn');
  const runtime = await prepareRuntime(config, logger);
  try {
    const tenancy = new TenancyService(new EnvironmentRepository(runtime.database.db));
    await tenancy.ensureFirstBoot(config.apiKey);
    const key = await tenancy.createKey(environmentName);
    process.stdout.write(`${key}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(
      `${error instanceof ConfigError ? 'Invalid configuration: ' : ''}${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
