import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser/chromium.js';
import {
  builtServiceDataDir,
  freePort,
  startService,
  waitForHealthy,
  waitForOutput,
  type ServiceProcess,
} from './support/service-process.js';
import { waitFor } from './support/wait.js';

/** A fresh embedded boot under a loaded machine (CI runs two test files at once) can take half a minute. */
const BOOT_BUDGET_MS = 120_000;

const UI_TIMEOUT_MS = 10_000;
const README_URL = 'http://localhost:3000';

/** The README's "## Quick start" fenced bash blocks, as commands (a backslash-continued line joined). */
function quickStartBlocks(): string[][] {
  const readme = readFileSync('README.md', 'utf8');
  const section = /^## Quick start\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Quick start" section');
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```/gm)].map((match) =>
    match[1]
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith('#')),
  );
}

interface Answer {
  status: number;
  body: string;
}

/** Runs one README curl command through bash as written, adding only options to read its status. */
function runCurl(command: string): Answer {
  const result = spawnSync('bash', ['-c', command.replace(/^curl /, `curl -sS -w '\\n%{http_code}' `)], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (result.status !== 0) throw new Error(`${command}\nexited ${result.status}: ${result.stderr}`);
  const lines = result.stdout.trimEnd().split('\n');
  return { status: Number(lines.pop()), body: lines.join('\n') };
}

/**
 * The README's quick start as a newcomer follows it: `npm start` on the embedded defaults, then the
 * section's commands with the key and application identifier the boot printed, the inbox page in a
 * real browser. So the README cannot drift from what the service does.
 */
describe('README quick start, run as written', () => {
  const dataDir = builtServiceDataDir('ns-readme-quick-start-');
  let service: ServiceProcess | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    await service?.stop('SIGTERM');
  });

  it(
    'shows the first notification in the inbox page as it is triggered, and in the feed',
    async () => {
      const blocks = quickStartBlocks();
      const commands = blocks.flat();
      expect(commands.filter((command) => command.startsWith('npm ci && npm start'))).toHaveLength(1);
      // `npm start`, then the block that ends with the notification listed: five commands at most.
      const firstNotification = blocks.find((block) =>
        block.some((command) => command.includes('/notifications/feed')),
      );
      expect(1 + firstNotification!.length).toBeLessThanOrEqual(5);
      const port = await freePort();
      service = startService({ DATA_DIR: dataDir(), LOG_LEVEL: 'info' }, port);
      await waitForHealthy(service);
      const key = (await waitForOutput(service, /Development API key[^:]*: ([0-9a-f]+)/))[1];
      const inboxDemo = (await waitForOutput(service, /"inboxDemo":"([^"]+)"/))[1];
      const applicationIdentifier = new URL(inboxDemo).searchParams.get('applicationIdentifier')!;
      const filled = (command: string) =>
        command
          .replaceAll(README_URL, `http://127.0.0.1:${port}`)
          .replaceAll('<key>', key)
          .replaceAll('<application-identifier>', applicationIdentifier);

      browser = await launchChromium();
      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      let inboxOpen = false;
      let triggered = false;
      let feed: Answer | undefined;
      try {
        for (const command of commands.map(filled)) {
          if (command.startsWith('npm ')) continue;
          if (command.startsWith('open ')) {
            const url = /^open "?([^"\s]+)"?/.exec(command)![1];
            if (!url.includes('/inbox-demo')) {
              expect((await fetch(url)).status).toBe(200);
              continue;
            }
            await tab.goto(url);
            await tab.locator('body[data-state="listening"]').waitFor({ timeout: UI_TIMEOUT_MS });
            await tab.evaluate(() => Object.assign(globalThis, { loadedOnce: true }));
            inboxOpen = true;
            continue;
          }
          expect(command).toMatch(/^curl /);
          const answer = runCurl(command);
          if (answer.status < 200 || answer.status > 299)
            throw new Error(`${command}\n${answer.status} ${answer.body}`);
          if (command.includes('/v1/events/trigger')) triggered = true;
          if (command.includes('/notifications/feed')) {
            // The trigger answers before the worker has written the message: a person types slower.
            await waitFor(() => (feed = runCurl(command)).body.includes('"content"'), {
              timeoutMs: UI_TIMEOUT_MS,
              description: 'the feed to list the notification',
            });
          }
        }
        expect(inboxOpen).toBe(true);
        expect(triggered).toBe(true);
        const listed = (JSON.parse(feed!.body) as { data: { content: string }[] }).data;
        expect(listed).toHaveLength(1);
        // What the page shows arrived over the socket, on the page as first loaded.
        await tab.getByText(listed[0].content).waitFor({ timeout: UI_TIMEOUT_MS });
        expect(await tab.evaluate(() => (globalThis as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
      } catch (error) {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${problems.join('\n')}`, {
          cause: error,
        });
      }
    },
    BOOT_BUDGET_MS,
  );
});
