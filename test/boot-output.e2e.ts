import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { builtServiceDataDir, freePort, MAIN, startService, waitForHealthy } from './support/service-process.js';
import { waitFor } from './support/wait.js';

/** A fresh embedded boot under a loaded machine (CI runs two test files at once) can take half a minute. */
const BOOT_BUDGET_MS = 120_000;

const KEY_PATTERN = /Development API key[^:]*: ([0-9a-f]+)/;
/** What a terminal shows of the boot, banner included; before, Nest's route table alone was 110 lines. */
const MAX_TERMINAL_LINES = 10;

/** The terminal's text: colours dropped, the pty's line endings made plain. */
function plain(output: string): string[] {
  // eslint-disable-next-line no-control-regex
  const text = output.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n');
  return text.split('\n').filter((line) => line.trim().length > 0);
}

/** The service's own pid, from the record it keeps in its DATA_DIR (the terminal's pid is `script`'s). */
function servicePid(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, 'running-service.json'), 'utf8')) as { pid: number }).pid;
}

/**
 * What `npm start` prints: readable lines and a short banner in a terminal, JSON lines for whatever
 * reads its output (CI, containers, log collectors). Nest's module and route lines are debug.
 */
describe('boot output', () => {
  const dataDir = builtServiceDataDir('ns-boot-output-');

  it(
    'in a terminal: a few one-line entries, then the URL, the docs, the inbox demo and the key',
    async () => {
      const directory = join(dataDir(), 'terminal');
      const port = await freePort();
      const service = startService({ DATA_DIR: directory, LOG_LEVEL: 'info' }, port, MAIN, { terminal: true });
      await waitForHealthy(service);
      await waitFor(() => KEY_PATTERN.test(service.output()), { timeoutMs: 5_000, description: 'the banner' });
      const lines = plain(service.output());
      expect(lines.length).toBeLessThanOrEqual(MAX_TERMINAL_LINES);
      expect(lines.filter((line) => line.startsWith('{') || line.includes('Duplicate DTO'))).toEqual([]);
      const url = `http://127.0.0.1:${port}`;
      // The banner's five lines, together; a line logged after them (a slow start's warning) may follow.
      const ready = lines.indexOf(`Notification service ready at ${url}`);
      expect(ready).toBeGreaterThanOrEqual(0);
      const banner = lines.slice(ready, ready + 5);
      expect(banner.slice(0, 2)).toEqual([`Notification service ready at ${url}`, `  API docs     ${url}/api-docs`]);
      const inboxDemo = /^ {2}Inbox demo {3}(\S+)$/.exec(banner[2])?.[1];
      expect(inboxDemo).toMatch(
        new RegExp(`^${url}/inbox-demo\\?applicationIdentifier=[\\w-]+&subscriberId=demo-user$`),
      );
      expect(KEY_PATTERN.exec(banner[3])?.[1]).toMatch(/^[0-9a-f]{48}$/);
      expect(banner[4]).toBe(`  Dashboard    ${url}/dashboard`);
      for (const page of [inboxDemo!, `${url}/dashboard`]) {
        const response = await fetch(page);
        await response.text();
        expect(response.status).toBe(200);
      }

      process.kill(servicePid(directory), 'SIGTERM');
      expect(await service.waitForExit()).toBe(0);
    },
    BOOT_BUDGET_MS,
  );

  it(
    'without a terminal: JSON lines only, the key among them, no route table',
    async () => {
      const port = await freePort();
      const service = startService({ DATA_DIR: join(dataDir(), 'pipe'), LOG_LEVEL: 'info' }, port);
      await waitForHealthy(service);
      await waitFor(() => KEY_PATTERN.test(service.output()), { timeoutMs: 5_000, description: 'the key line' });
      expect(await service.stop('SIGTERM')).toBe(0);
      const entries = service
        .output()
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as { msg: string; context?: string; url?: string; apiDocs?: string });
      expect(
        entries.filter((entry) => entry.context === 'RouterExplorer' || entry.context === 'InstanceLoader'),
      ).toEqual([]);
      expect(entries.filter((entry) => entry.msg.includes('Duplicate DTO'))).toEqual([]);
      expect(entries.find((entry) => entry.msg === 'service started')).toMatchObject({
        url: `http://127.0.0.1:${port}`,
        apiDocs: `http://127.0.0.1:${port}/api-docs`,
      });
      expect(entries.filter((entry) => KEY_PATTERN.test(entry.msg))).toHaveLength(1);
    },
    BOOT_BUDGET_MS,
  );
});
