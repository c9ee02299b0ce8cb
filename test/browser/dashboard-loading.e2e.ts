import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { signInAs, startDashboard, UI_TIMEOUT_MS, type DashboardUnderTest } from './dashboard-browser.js';

const WORKFLOWS_CHUNK = /\/dashboard\/assets\/workflows-page-[^/]+\.js$/;

/** The API requests a page sends from now on, by path. */
function recordApiRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/')) requests.push(request);
  });
  return requests;
}

function sentTo(requests: Request[], path: string): Request[] {
  return requests.filter((request) => new URL(request.url()).pathname === path);
}

/** Counts the page's document loads from now on (a reload is one; a client-side navigation is none). */
function countDocumentLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  return () => loads;
}

describe('loading the dashboard', () => {
  let d: DashboardUnderTest;
  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it("asks once for the session and for Activity's first page, in the environment and with the filters the page shows", () =>
    d.explained(async () => {
      const page = await signInAs(d, 'viewer');
      const production = (await d.t.createKeyFor('Production')).environment;
      // The environment picked earlier in this browser (the tests are compiled without the DOM's types).
      await page.evaluate((id) => {
        const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
          .localStorage;
        storage.setItem('dashboard.environment', id);
      }, production.id);

      const requests = recordApiRequests(page);
      await page.goto(`${d.url}/activity?status=failed`);
      await page.getByText('No notifications match.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.getByLabel('Environment').inputValue()).resolves.toBe(production.id);

      expect(sentTo(requests, '/v1/dashboard/session')).toHaveLength(1);
      const notifications = sentTo(requests, '/v1/notifications');
      expect(notifications).toHaveLength(1);
      expect(new URL(notifications[0].url()).search).toBe('?statuses=failed&page=0&limit=20');
      expect(notifications[0].headers()['x-environment-id']).toBe(production.id);
    }));

  it("reloads once when a page's chunk no longer loads (a deploy replaced it), and then shows the page", () =>
    d.explained(async () => {
      const page = await signInAs(d, 'viewer');
      const documentLoads = countDocumentLoads(page);
      await page.route(WORKFLOWS_CHUNK, (route) => route.fulfill({ status: 404 }), { times: 1 });

      await page.getByRole('link', { name: 'Workflows' }).click();
      await page.getByRole('heading', { name: 'Workflows' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(page.url()).pathname).toBe('/dashboard/workflows');
      expect(documentLoads()).toBe(1);
    }));

  it('does not reload again when the chunk is still missing after the reload, and says so in the frame', () =>
    d.explained(async () => {
      const page = await signInAs(d, 'viewer');
      const documentLoads = countDocumentLoads(page);
      let chunkRequests = 0;
      await page.route(WORKFLOWS_CHUNK, (route) => {
        chunkRequests += 1;
        return route.fulfill({ status: 404 });
      });

      await page.getByRole('link', { name: 'Workflows' }).click();
      const failedTwice = Date.now() + UI_TIMEOUT_MS;
      while (chunkRequests < 2 && Date.now() < failedTwice) await page.waitForTimeout(50);
      expect(chunkRequests).toBe(2);
      // Long enough for a second reload to have started, had there been one.
      await page.waitForTimeout(1_000);
      expect(chunkRequests).toBe(2);
      expect(documentLoads()).toBe(1);
      // Said in place of the page, the frame kept: not a blank app.
      await page.getByRole('alert').filter({ hasText: 'This page could not be loaded' }).waitFor();
      await page.getByRole('link', { name: 'Activity' }).click();
      await page.getByRole('heading', { name: 'Activity' }).waitFor({ timeout: UI_TIMEOUT_MS });
    }));
});
