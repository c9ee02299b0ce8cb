import type { EnvironmentRepository, InboxTopicPolicyChange } from '#dal';
import { parseInboxTopicPatterns, parseInboxTopicsPerSubscriber } from '../inbox/inbox-topic-policy.js';

export const INBOX_TOPICS_USAGE =
  "npm run cli -- environment inbox-topics [--allow <'key,prefix*,...'|none>] [--max-per-subscriber <n>] --environment <name>";

export interface InboxTopicsCommand {
  environmentName: string;
  change: InboxTopicPolicyChange;
}

/**
 * The flags after `environment inbox-topics`, in any order; undefined when they do not make a command
 * (the usage is printed). A malformed pattern or cap throws, naming what is wrong.
 */
export function parseInboxTopicsCommand(args: string[]): InboxTopicsCommand | undefined {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (!['--allow', '--max-per-subscriber', '--environment'].includes(flag) || value === undefined) return undefined;
    if (flags.has(flag)) return undefined;
    flags.set(flag, value);
  }
  const environmentName = flags.get('--environment');
  const allow = flags.get('--allow');
  const max = flags.get('--max-per-subscriber');
  if (!environmentName || (allow === undefined && max === undefined)) return undefined;
  return {
    environmentName,
    change: {
      patterns: allow === undefined ? undefined : parseInboxTopicPatterns(allow),
      perSubscriber: max === undefined ? undefined : parseInboxTopicsPerSubscriber(max),
    },
  };
}

/** Applies the change and answers the environment's resulting setting, in a sentence. */
export async function runInboxTopicsCommand(
  environments: EnvironmentRepository,
  command: InboxTopicsCommand,
): Promise<string> {
  const environment = await environments.findEnvironmentByName(command.environmentName);
  if (!environment) throw new Error(`Environment ${command.environmentName} not found`);
  const updated = await environments.setInboxTopicPolicy(environment.id, command.change);
  if (!updated) throw new Error(`Environment ${command.environmentName} not found`);
  const topics = updated.inboxTopicPatterns.length
    ? `may join or create the topics ${updated.inboxTopicPatterns.join(', ')}`
    : 'may join no topic';
  return `${updated.name}: inbox sessions ${topics}, at most ${updated.inboxTopicsPerSubscriber} per subscriber`;
}
