import { isDashboardRole, type DashboardRole } from '#common';
import { generatePassword, type DashboardUsersService } from '#application';

export const USER_USAGE = [
  'npm run cli -- user create --email <address> --role <admin|editor|viewer>',
  '       npm run cli -- user list',
  '       npm run cli -- user set-role --email <address> --role <admin|editor|viewer>',
  '       npm run cli -- user delete --email <address>',
].join('\n');

export type UserCommand =
  | { action: 'create'; email: string; role: DashboardRole }
  | { action: 'list' }
  | { action: 'set-role'; email: string; role: DashboardRole }
  | { action: 'delete'; email: string };

/** The words after `user`; undefined when they do not make a command (the usage is printed). */
export function parseUserCommand(args: string[]): UserCommand | undefined {
  const [action, ...rest] = args;
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    if (!['--email', '--role'].includes(rest[i]) || rest[i + 1] === undefined || flags.has(rest[i])) return undefined;
    flags.set(rest[i], rest[i + 1]);
  }
  const email = flags.get('--email');
  const role = flags.get('--role');
  if (action === 'list' && flags.size === 0) return { action };
  if (action === 'delete' && email && flags.size === 1) return { action, email };
  if ((action === 'create' || action === 'set-role') && email && isDashboardRole(role) && flags.size === 2)
    return { action, email, role };
  return undefined;
}

/** Runs the command on the first organization's users; answers what to print. */
export async function runUserCommand(users: DashboardUsersService, command: UserCommand): Promise<string> {
  const organizationId = await users.firstOrganizationId();
  if (command.action === 'create') {
    // Typed passwords end up in shell history: the CLI makes one, shown once, for the user to change.
    const password = generatePassword();
    const user = await users.create(organizationId, { email: command.email, role: command.role, password });
    return `Created ${user.role} ${user.email}. Password (shown once; change it after signing in): ${password}`;
  }
  if (command.action === 'list') {
    const list = await users.list(organizationId);
    return list.length === 0 ? 'No dashboard users' : list.map((user) => `${user.email}\t${user.role}`).join('\n');
  }
  const user = await users.findByEmail(organizationId, command.email);
  if (command.action === 'delete') {
    await users.delete(organizationId, user.id);
    return `Deleted ${user.email}; their sessions have ended`;
  }
  const changed = await users.setRole(organizationId, user.id, command.role);
  return `${changed.email} is now ${changed.role}; their sessions have ended`;
}
