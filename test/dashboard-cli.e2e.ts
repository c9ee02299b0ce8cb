import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DashboardUsersService } from '#application';
import { runUserCommand } from '#api/dashboard-accounts/dashboard-users.command.js';
import { signIn } from './support/dashboard.js';
import { builtServiceDataDir } from './support/service-process.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from './support/test-app.js';

const PASSWORD_LINE = /^Created (\w+) (\S+)\. Password \(shown once; change it after signing in\): (\S+)\n$/;

/** Each CLI run opens the database (embedded: PGlite and its migrations) on a busy two-core machine. */
const CLI_TIMEOUT_MS = 180_000;

describe('npm run cli -- user …', () => {
  const dataDir = builtServiceDataDir('ns-dashboard-cli-');
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * The built CLI. On the server pass it works on this test's database, so its users can sign in
   * here; embedded, the test's database lives inside this process, so the CLI gets a directory of its own.
   */
  const cli = (...args: string[]) => {
    const { databaseUrl } = t.runtime.config;
    const target = databaseUrl
      ? { DATABASE_URL: databaseUrl, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }
      : { DATA_DIR: dataDir() };
    return spawnSync(process.execPath, [join(process.cwd(), 'dist/apps/api/src/cli.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...target },
      encoding: 'utf8',
      timeout: 60_000,
    });
  };

  it(
    'creates users with a password shown once, lists, re-roles and deletes them, and refuses bad input',
    async () => {
      const admin = cli('user', 'create', '--email', 'Ops@Example.com', '--role', 'admin');
      expect(admin.stderr).toBe('');
      expect(admin.status).toBe(0);
      const [, role, email, password] = PASSWORD_LINE.exec(admin.stdout)!;
      expect([role, email, password.length >= 12]).toEqual(['admin', 'ops@example.com', true]);
      if (t.runtime.config.databaseUrl) await signIn(t, email, password);

      expect(cli('user', 'create', '--email', 'ed@example.com', '--role', 'editor').status).toBe(0);
      expect(cli('user', 'list').stdout).toBe('ed@example.com\teditor\nops@example.com\tadmin\n');
      const taken = cli('user', 'create', '--email', 'ops@example.com', '--role', 'viewer');
      expect([taken.status, taken.stderr]).toEqual([1, 'A dashboard user with email ops@example.com already exists\n']);
      const usage = cli('user', 'create', '--email', 'x@example.com', '--role', 'owner');
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('npm run cli -- user create --email <address> --role <admin|editor|viewer>');
      expect(cli('user', 'create', '--email', 'not an address', '--role', 'viewer').status).toBe(1);

      const lastAdmin = cli('user', 'set-role', '--email', 'ops@example.com', '--role', 'viewer');
      expect([lastAdmin.status, lastAdmin.stderr]).toEqual([1, 'The last admin cannot be removed or demoted\n']);
      expect(cli('user', 'set-role', '--email', 'ed@example.com', '--role', 'viewer').stdout).toBe(
        'ed@example.com is now viewer; their sessions have ended\n',
      );
      expect(cli('user', 'delete', '--email', 'ed@example.com').stdout).toBe(
        'Deleted ed@example.com; their sessions have ended\n',
      );
      expect(cli('user', 'delete', '--email', 'ed@example.com').status).toBe(1);
      expect(cli('user', 'list').stdout).toBe('ops@example.com\tadmin\n');
    },
    CLI_TIMEOUT_MS,
  );

  it('creates a user whose shown password signs in', async () => {
    const output = await runUserCommand(t.app.get(DashboardUsersService), {
      action: 'create',
      email: 'first.admin@example.com',
      role: 'admin',
    });
    const [, , email, password] = PASSWORD_LINE.exec(`${output}\n`)!;
    const browser = await signIn(t, email, password);
    expect(browser.body.user).toMatchObject({ email: 'first.admin@example.com', role: 'admin' });
  });
});
