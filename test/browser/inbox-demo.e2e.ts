import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { EnvironmentRepository } from '#dal';
import { createWorkflow, step } from '../support/engine-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { launchChromium } from './chromium.js';

const UI_TIMEOUT_MS = 10_000;

describe('GET /inbox-demo: the quick start inbox page', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  const pageUrl = (query: Record<string, string>) => `${baseUrl}/inbox-demo?${new URLSearchParams(query).toString()}`;

  /** A fresh tab on the page, with what went wrong in it kept for the failure message. */
  async function openPage(query: Record<string, string>): Promise<{ tab: Page; problems: string[] }> {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await tab.goto(pageUrl(query));
    return { tab, problems };
  }

  /** Reads the whole answer: an unread body holds its connection open, and the app's close waits for it. */
  async function get(url: string) {
    const response = await fetch(url);
    return { status: response.status, headers: response.headers, body: await response.text() };
  }

  const stateOf = (tab: Page) => tab.locator('body[data-state]').getAttribute('data-state', { timeout: UI_TIMEOUT_MS });

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is served for a Development environment only, with a policy that runs only its own scripts', async () => {
    const production = await t.createKeyFor('Production');
    const page = await get(pageUrl({ applicationIdentifier: t.environment.identifier, subscriberId: 'x' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('<html');
    const other = await get(pageUrl({ applicationIdentifier: production.environment.identifier, subscriberId: 'x' }));
    expect(other.status).toBe(404);
    expect((await get(pageUrl({ applicationIdentifier: 'unknown', subscriberId: 'x' }))).status).toBe(404);
    expect((await get(pageUrl({ applicationIdentifier: t.environment.identifier }))).status).toBe(422);
    const client = await get(`${baseUrl}/inbox-demo/socket.io.min.js`);
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(client.body).toContain('io');
    // Not part of the API: the OpenAPI document does not list it.
    const document = (await t.http.get('/api-docs-json')).body;
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/inbox-demo'))).toEqual([]);
  });

  it('adds a triggered notification without a reload, showing its content as text', async () => {
    const subscriberId = 'demo-reader';
    // Markup written into the workflow's own content (a payload value would be escaped by the template).
    const markup = '<img src="x" onerror="globalThis.injected = true">';
    const workflow = await createWorkflow(t, {
      steps: [step({ template: { type: 'in_app', subject: 'Hi', content: `${markup} {{payload.item}} shipped` } })],
    });
    const { tab, problems } = await openPage({ applicationIdentifier: t.environment.identifier, subscriberId });
    try {
      expect(await stateOf(tab)).toBe('listening');
      await tab.evaluate(() => Object.assign(globalThis, { loadedOnce: true }));
      const trigger = await t
        .api('post', '/v1/events/trigger')
        .send({ name: workflow.identifier, to: subscriberId, payload: { item: 'Order 7' } });
      expect(trigger.status).toBe(201);
      await tab.getByText(`${markup} Order 7 shipped`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await tab.locator('#notifications li strong').first().textContent()).toBe('Hi');
      expect(await tab.evaluate(() => (globalThis as { injected?: boolean }).injected)).toBeUndefined();
      expect(await tab.evaluate(() => (globalThis as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
      expect(await tab.locator('#notifications img').count()).toBe(0);
    } catch (error) {
      const shown = await tab.locator('body').innerText();
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n${problems.join('\n')}\npage: ${shown}`,
        {
          cause: error,
        },
      );
    } finally {
      await tab.close();
    }
  });

  it('needs the subscriberHash like any session once the environment requires HMAC', async () => {
    await t.app.get(EnvironmentRepository).setRequireHmac(t.environment.id, true);
    try {
      const subscriberId = 'hmac-reader';
      const refused = await openPage({ applicationIdentifier: t.environment.identifier, subscriberId });
      expect(await stateOf(refused.tab)).toBe('error');
      expect(await refused.tab.locator('#status').textContent()).toContain('requires a subscriberHash');
      await refused.tab.close();

      const subscriberHash = createHmac('sha256', t.apiKey).update(subscriberId).digest('hex');
      const allowed = await openPage({ applicationIdentifier: t.environment.identifier, subscriberId, subscriberHash });
      expect(await stateOf(allowed.tab)).toBe('listening');
      await allowed.tab.close();
    } finally {
      await t.app.get(EnvironmentRepository).setRequireHmac(t.environment.id, false);
    }
  });
});
