import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { ROOT } from './processes.js';
import { seedFeedOnce } from './scenarios.js';

const run = promisify(execFile);
/** Navigations measured, each in a fresh browser context (nothing cached) and again with the app cached. */
const NAVIGATIONS = 10;
const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** When each step of a navigation ended, in ms from its start (resource timing, read in the page). */
export interface LoadSteps {
  /** The HTML. */
  document: number;
  /** The last script or stylesheet. */
  assets: number;
  /** `GET /v1/dashboard/session` answered. */
  session: number;
  /** The first `GET /v1/notifications` answered. */
  notifications: number;
  /** The frame painting the first row. */
  firstRow: number;
}

export interface DashboardResult {
  seededRows: number;
  /** Navigation start → the first page's rows shown, in a context that never loaded the app. */
  cold: LoadSteps[];
  /** The same with the app's assets in the browser's cache (a user coming back). */
  warm: LoadSteps[];
}

/** A dashboard admin made by the CLI, as an operator makes one; its printed password. */
async function createAdmin(deployment: Deployment, email: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [join(ROOT, 'dist/apps/api/src/cli.js'), 'user', 'create', '--email', email, '--role', 'admin'],
    { env: { ...process.env, ...deployment.env } },
  );
  const password = /Password[^:]*: (\S+)/.exec(stdout)?.[1];
  if (!password) throw new Error(`the CLI printed no password: ${stdout}`);
  return password;
}

/**
 * Runs in the page before its first script (the bench is compiled without the DOM's types, hence a
 * string): records when the frame that paints the Activity table's first row begins.
 */
const RECORD_FIRST_ROW = `
  const observer = new MutationObserver(() => {
    if (!document.querySelector('table.list tbody tr')) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.firstRowPaintedAt = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true });`;

interface TimedEntry {
  name: string;
  initiatorType: string;
  responseEnd: number;
}

/** The steps of a navigation from the page's resource timing; a step not seen is NaN. */
function loadSteps(entries: TimedEntry[], firstRow: number): LoadSteps {
  const endOf = (matches: (entry: TimedEntry) => boolean) => {
    const ends = entries.filter(matches).map((entry) => entry.responseEnd);
    return ends.length > 0 ? Math.min(...ends) : Number.NaN;
  };
  const assets = entries.filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname));
  return {
    document: endOf((entry) => entry.initiatorType === 'navigation'),
    assets: assets.length > 0 ? Math.max(...assets.map((entry) => entry.responseEnd)) : Number.NaN,
    session: endOf((entry) => new URL(entry.name).pathname === '/v1/dashboard/session'),
    notifications: endOf((entry) => new URL(entry.name).pathname === '/v1/notifications'),
    firstRow,
  };
}

/**
 * Milliseconds from the navigation's start to the first row painted, measured in the page itself, so
 * the figure holds no polling interval of the driver; and when each request it waited for ended.
 */
async function timeActivity(page: Page, url: string): Promise<LoadSteps> {
  await page.addInitScript({ content: RECORD_FIRST_ROW });
  await page.goto(url, { waitUntil: 'commit' });
  // Functions, not strings: the dashboard's Content-Security-Policy forbids eval.
  const painted = await page.waitForFunction(
    () => (globalThis as { firstRowPaintedAt?: number }).firstRowPaintedAt,
    undefined,
    { timeout: 10_000 },
  );
  // The bench is compiled without the DOM's types: the page's timeline, as much of it as is read here.
  const entries = await page.evaluate(() => {
    const timeline = (globalThis as unknown as { performance: { getEntriesByType(type: string): TimedEntry[] } })
      .performance;
    return [...timeline.getEntriesByType('navigation'), ...timeline.getEntriesByType('resource')].map((entry) => ({
      name: entry.name,
      initiatorType: entry.initiatorType,
      responseEnd: entry.responseEnd,
    }));
  });
  return loadSteps(entries, Number(await painted.jsonValue()));
}

/**
 * The dashboard's Activity page over the feed's seeded notifications (1,000,000 by default) in
 * Debian's Chromium: signed in through the login page, then `NAVIGATIONS` loads of
 * `/dashboard/activity`, cold (a new browser context each time) and warm (the same context again).
 */
export async function dashboardActivity(deployment: Deployment, options: BenchOptions): Promise<DashboardResult> {
  const executablePath = CHROMIUM_PATHS.find((path) => existsSync(path));
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium');
  await seedFeedOnce(deployment, options);
  const email = `bench-${Date.now()}@example.com`;
  const password = await createAdmin(deployment, email);
  const base = `${deployment.client.baseUrl}/dashboard`;
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  try {
    const cold: LoadSteps[] = [];
    const warm: LoadSteps[] = [];
    for (let i = 0; i < NAVIGATIONS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel(/^Password/).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('table.list tbody tr').first().waitFor({ state: 'visible', timeout: 10_000 });
      // The sign-in loaded the app: a new page of a new context is the cold case.
      const fresh = await browser.newContext({ storageState: await context.storageState() });
      cold.push(await timeActivity(await fresh.newPage(), `${base}/activity`));
      await fresh.close();
      warm.push(await timeActivity(page, `${base}/activity`));
      await context.close();
    }
    return { seededRows: options.feedRows, cold, warm };
  } finally {
    await browser.close();
  }
}
