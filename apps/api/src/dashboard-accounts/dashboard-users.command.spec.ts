import { describe, expect, it } from '@jest/globals';
import { parseUserCommand } from './dashboard-users.command.js';

describe('user (CLI arguments)', () => {
  it('takes the flags in any order', () => {
    expect(parseUserCommand(['create', '--role', 'admin', '--email', 'ops@example.com'])).toEqual({
      action: 'create',
      email: 'ops@example.com',
      role: 'admin',
    });
    expect(parseUserCommand(['set-role', '--email', 'ops@example.com', '--role', 'viewer'])).toEqual({
      action: 'set-role',
      email: 'ops@example.com',
      role: 'viewer',
    });
    expect(parseUserCommand(['delete', '--email', 'ops@example.com'])).toEqual({
      action: 'delete',
      email: 'ops@example.com',
    });
    expect(parseUserCommand(['list'])).toEqual({ action: 'list' });
  });

  it.each([
    [[]],
    [['create', '--email', 'ops@example.com']],
    [['create', '--email', 'ops@example.com', '--role', 'owner']],
    [['create', '--email', 'a@example.com', '--email', 'b@example.com', '--role', 'admin']],
    [['delete', '--email', 'ops@example.com', '--role', 'admin']],
    [['delete']],
    [['list', '--email', 'ops@example.com']],
    [['rename', '--email', 'ops@example.com']],
    [['create', '--email']],
  ])('answers no command (the usage) for %j', (args) => {
    expect(parseUserCommand(args)).toBeUndefined();
  });
});
