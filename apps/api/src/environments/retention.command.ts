import type { RetentionDays } from '#common';
import { parseRetentionDays, retentionOf } from '#application';
import type { EnvironmentRepository, RetentionOverrides } from '#dal';

export const RETENTION_USAGE =
  'npm run cli -- environment retention [--activity-days <days|default>] [--messages-days <days|default>] --environment <name>';

export interface RetentionCommand {
  environmentName: string;
  /** Empty: the command only shows the environment's retention. */
  overrides: RetentionOverrides;
}

const FLAGS = ['--activity-days', '--messages-days', '--environment'];

/**
 * The flags after `environment retention`, in any order; undefined when they do not make a command
 * (the usage is printed). A value that is neither whole days in bounds nor `default` throws, naming it.
 */
export function parseRetentionCommand(args: string[]): RetentionCommand | undefined {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (!FLAGS.includes(flag) || value === undefined || flags.has(flag)) return undefined;
    flags.set(flag, value);
  }
  const environmentName = flags.get('--environment');
  if (!environmentName) return undefined;
  const activity = flags.get('--activity-days');
  const messages = flags.get('--messages-days');
  return {
    environmentName,
    overrides: {
      ...(activity !== undefined ? { activityDays: parseRetentionDays('--activity-days', activity) } : {}),
      ...(messages !== undefined ? { messagesDays: parseRetentionDays('--messages-days', messages) } : {}),
    },
  };
}

/** Applies the overrides and answers the environment's resulting retention, in a sentence. */
export async function runRetentionCommand(
  environments: EnvironmentRepository,
  defaults: RetentionDays,
  command: RetentionCommand,
): Promise<string> {
  const found = await environments.findEnvironmentByName(command.environmentName);
  const environment =
    found && Object.keys(command.overrides).length > 0
      ? await environments.setRetention(found.id, command.overrides)
      : found;
  if (!environment) throw new Error(`Environment ${command.environmentName} not found`);
  const days = retentionOf(defaults, environment);
  const source = (override: number | null) => (override === null ? 'the default' : "this environment's");
  return (
    `${environment.name}: activity kept ${days.activityDays} days (${source(environment.retentionActivityDays)}), ` +
    `messages kept ${days.messagesDays} days (${source(environment.retentionMessagesDays)})`
  );
}
