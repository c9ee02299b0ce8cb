import 'reflect-metadata';
import { ConfigError, createLogger, loadConfig, SystemClock } from '#common';
import { DashboardUserRepository, EnvironmentRepository } from '#dal';
import { CredentialsCipher, DashboardUsersService, TenancyService } from '#application';
import { prepareCliRuntime } from './cli-runtime.js';
import {
  parseUserCommand,
  runUserCommand,
  USER_USAGE,
  type UserCommand,
} from './dashboard-accounts/dashboard-users.command.js';
import {
  INBOX_TOPICS_USAGE,
  parseInboxTopicsCommand,
  runInboxTopicsCommand,
  type InboxTopicsCommand,
} from './environments/inbox-topics.command.js';
import {
  parseRetentionCommand,
  RETENTION_USAGE,
  runRetentionCommand,
  type RetentionCommand,
} from './environments/retention.command.js';

const USAGE = [
  'usage: npm run cli -- api-key create --environment <Development|Production>',
  '       npm run cli -- environment require-hmac <on|off> --environment <Development|Production>',
  `       ${INBOX_TOPICS_USAGE}`,
  `       ${RETENTION_USAGE}`,
  `       ${USER_USAGE}`,
].join('\n');

type Command =
  | { kind: 'create-key'; environmentName: string }
  | { kind: 'require-hmac'; environmentName: string; on: boolean }
  | ({ kind: 'inbox-topics' } & InboxTopicsCommand)
  | ({ kind: 'retention' } & RetentionCommand)
  | { kind: 'user'; command: UserCommand };

function parse(argv: string[]): Command | undefined {
  const [resource, action, ...rest] = argv;
  if (resource === 'api-key' && action === 'create' && rest[0] === '--environment' && rest[1])
    return { kind: 'create-key', environmentName: rest[1] };
  if (resource === 'environment' && action === 'require-hmac' && ['on', 'off'].includes(rest[0]))
    if (rest[1] === '--environment' && rest[2])
      return { kind: 'require-hmac', environmentName: rest[2], on: rest[0] === 'on' };
  if (resource === 'environment' && action === 'inbox-topics') {
    const command = parseInboxTopicsCommand(rest);
    return command && { kind: 'inbox-topics', ...command };
  }
  if (resource === 'environment' && action === 'retention') {
    const command = parseRetentionCommand(rest);
    return command && { kind: 'retention', ...command };
  }
  if (resource === 'user') {
    const command = parseUserCommand([action, ...rest]);
    return command && { kind: 'user', command };
  }
  return undefined;
}

/** Operator commands on the database: the running embedded service's when one holds DATA_DIR (cli-runtime.ts). */
async function main(argv: string[]): Promise<number> {
  const command = parse(argv);
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger('warn');
  const runtime = await prepareCliRuntime(config, logger);
  try {
    const environments = new EnvironmentRepository(runtime.database.db);
    const tenancy = new TenancyService(environments, new CredentialsCipher(config));
    await tenancy.ensureFirstBoot(config.apiKey);
    if (command.kind === 'create-key') {
      process.stdout.write(`${await tenancy.createKey(command.environmentName)}\n`);
      return 0;
    }
    if (command.kind === 'inbox-topics') {
      process.stdout.write(`${await runInboxTopicsCommand(environments, command)}\n`);
      return 0;
    }
    if (command.kind === 'user') {
      const users = new DashboardUsersService(
        new DashboardUserRepository(runtime.database.db),
        environments,
        new SystemClock(),
      );
      process.stdout.write(`${await runUserCommand(users, command.command)}\n`);
      return 0;
    }
    if (command.kind === 'retention') {
      process.stdout.write(`${await runRetentionCommand(environments, config.retention, command)}\n`);
      return 0;
    }
    const environment = await environments.findEnvironmentByName(command.environmentName);
    if (!environment) throw new Error(`Environment ${command.environmentName} not found`);
    await environments.setRequireHmac(environment.id, command.on);
    process.stdout.write(
      `${environment.name}: inbox sessions ${command.on ? 'require' : 'do not require'} an HMAC hash\n`,
    );
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
