import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { announceBoot, bootBanner, localUrl } from './boot-banner.js';

const KEY_PATTERN = /Development API key[^:]*: ([0-9a-f]+)/;

describe('localUrl', () => {
  it('names a wildcard address localhost and brackets an IPv6 one', () => {
    expect(localUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(localUrl('::', 3000)).toBe('http://localhost:3000');
    expect(localUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(localUrl('::1', 8080)).toBe('http://[::1]:8080');
  });
});

describe('bootBanner', () => {
  it('shows the URL, the API docs, the inbox demo, the dashboard, the key an api created and the dashboard setup link', () => {
    const banner = bootBanner({
      url: 'http://localhost:3000',
      role: 'all',
      inboxDemoUrl: 'http://localhost:3000/inbox-demo?applicationIdentifier=abc&subscriberId=demo-user',
      dashboardUrl: 'http://localhost:3000/dashboard',
      developmentKey: 'f00d',
      dashboardSetupUrl: 'http://localhost:3000/dashboard/setup#token=t0k3n',
    });
    expect(banner.trim().split('\n')).toEqual([
      'Notification service ready at http://localhost:3000',
      '  API docs     http://localhost:3000/api-docs',
      '  Inbox demo   http://localhost:3000/inbox-demo?applicationIdentifier=abc&subscriberId=demo-user',
      '  Development API key (shown once, keep it): f00d',
      '  Dashboard    http://localhost:3000/dashboard',
      '  Dashboard setup link (shown once, valid 24 hours; creates the first admin): http://localhost:3000/dashboard/setup#token=t0k3n',
    ]);
    expect(KEY_PATTERN.exec(banner)?.[1]).toBe('f00d');
  });

  it('shows only the URL for a worker, and no key on a later boot', () => {
    expect(bootBanner({ url: 'http://localhost:3001', role: 'worker' }).trim()).toBe(
      'Notification service ready at http://localhost:3001',
    );
  });
});

describe('announceBoot without a terminal', () => {
  it('writes JSON lines, and the created key and setup link even when LOG_LEVEL hides info', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const dashboardSetupUrl = 'http://localhost:3000/dashboard/setup#token=t0k3n';
    announceBoot(
      logger,
      false,
      { url: 'http://localhost:3000', role: 'all', developmentKey: 'beef', dashboardSetupUrl },
      { port: 3000 },
    );
    expect(lines).toHaveLength(2);
    const [key, link] = lines.map((line) => JSON.parse(line) as { msg: string });
    expect(KEY_PATTERN.exec(key.msg)?.[1]).toBe('beef');
    expect(link.msg).toContain(dashboardSetupUrl);
  });

  it('logs where the service answers at info', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    announceBoot(logger, false, { url: 'http://localhost:3000', role: 'api' }, { port: 3000 });
    expect(lines.map((line) => JSON.parse(line) as object)).toEqual([
      expect.objectContaining({
        msg: 'service started',
        port: 3000,
        url: 'http://localhost:3000',
        apiDocs: 'http://localhost:3000/api-docs',
      }),
    ]);
  });
});
