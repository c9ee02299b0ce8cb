import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from '@jest/globals';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';
import { createDashboardUser, TEST_PASSWORD } from '../support/dashboard.js';
import { launchChromium } from './chromium.js';

export const UI_TIMEOUT_MS = 10_000;

export interface DashboardUnderTest {
  t: TestApp;
  browser: Browser;
  /** http://127.0.0.1:<port>/dashboard */
  url: string;
  /** A page in a fresh browser context (its own cookies), recording its errors for the failure message. */
  newPage(): Promise<Page>;
  /** What went wrong in any page so far: script errors, console errors. */
  problems: string[];
  /** Runs a test's steps; a failure carries the pages' problems, which explain more than a missing element. */
  explained(run: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** The service (built dashboard included) listening on 127.0.0.1, and one Chromium for the whole file. */
export async function startDashboard(options: TestAppOptions = {}): Promise<DashboardUnderTest> {
  const t = await startTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.getHttpServer().address() as AddressInfo).port;
  const browser = await launchChromium();
  const problems: string[] = [];
  return {
    t,
    browser,
    url: `http://127.0.0.1:${port}/dashboard`,
    problems,
    newPage: async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(UI_TIMEOUT_MS);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // A refused request is logged by the browser: the tests make some on purpose (401, 403, 422).
        if (message.type() === 'error' && !message.text().includes('Failed to load resource'))
          problems.push(`console: ${message.text()}`);
      });
      return page;
    },
    explained: async (run) => {
      try {
        await run();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${message}\n${problems.join('\n')}`, { cause: error });
      }
    },
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * No serious or critical axe-core violation on the page as it stands (else they fail the test as "rule: element"
 * lines), outside the `exclude` selectors.
 */
export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  // Through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async (excluded) => {
    type Context = { include: string[][]; exclude: string[][] };
    const inPage = (
      globalThis as unknown as { axe: { run(context: Context): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await inPage.run({ include: [['body']], exclude: excluded.map((selector) => [selector]) });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }, exclude);
  expect(violations).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/**
 * With DASHBOARD_SCREENSHOTS_DIR set (`docs/images` for the README), saves the page as it stands there; the
 * README's pictures are the tests' own views.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.DASHBOARD_SCREENSHOTS_DIR;
  if (directory) await page.screenshot({ path: join(directory, `dashboard-${name}.png`) });
}

/** The JavaScript a page load fetched, each file's size once gzipped (level 9, as the build stores it). */
export function recordScripts(page: Page): { gzippedBytes(): Promise<number>; urls: string[] } {
  const responses: Promise<Buffer>[] = [];
  const urls: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    urls.push(response.url());
    responses.push(response.body());
  });
  return {
    urls,
    gzippedBytes: async () =>
      (await Promise.all(responses)).reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0),
  };
}

/** A new page signed in as a new dashboard user of `role`, on Activity. */
export async function signInAs(d: DashboardUnderTest, role: 'editor' | 'viewer'): Promise<Page> {
  const user = await createDashboardUser(d.t, role);
  const page = await d.newPage();
  await page.goto(`${d.url}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Activity' }).waitFor({ timeout: UI_TIMEOUT_MS });
  return page;
}
