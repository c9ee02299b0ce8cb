import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { createSubscriber } from '../support/builders.js';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { launchChromium } from './chromium.js';
import { startInboxPage, type InboxPage } from './inbox-page.js';

const UI_TIMEOUT_MS = 10_000;

/** What the page's socket.io connection received, frame by frame. */
function recordSocketFrames(page: Page): { frames: string[]; sockets: string[] } {
  const record = { frames: [] as string[], sockets: [] as string[] };
  page.on('websocket', (socket: WebSocket) => {
    record.sockets.push(socket.url().split('?')[0]);
    socket.on('framereceived', ({ payload }) => record.frames.push(String(payload)));
  });
  return record;
}

describe('the Novu Inbox UI in Chromium against the service', () => {
  let t: TestApp;
  let page: InboxPage;
  let browser: Browser;
  let tab: Page;
  const problems: string[] = [];
  const subscriberId = 'browser-reader';

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.getHttpServer().address() as AddressInfo;
    const serviceUrl = `http://127.0.0.1:${address.port}`;
    await createSubscriber(t, { subscriberId, firstName: 'Ada' });
    const me = await t.api('get', '/v1/environments/me');
    expect(me.status).toBe(200);
    page = await startInboxPage({
      serviceUrl,
      applicationIdentifier: me.body.identifier,
      subscriberId,
    });
    browser = await launchChromium();
    tab = await browser.newPage();
    // Shown with a failure: a CORS refusal or a client exception explains more than a missing element.
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    tab.on('requestfailed', (request) =>
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await t?.close();
  });

  it('shows a triggered notification without a reload, over the socket, and a click marks it read', async () => {
    const socket = recordSocketFrames(tab);
    const workflow = await createWorkflow(t, {
      steps: [inApp('Order {{payload.orderId}} has shipped, {{subscriber.firstName}}')],
    });
    try {
      await tab.goto(page.url);
      await tab.locator('.nv-inbox__popoverTrigger').click({ timeout: UI_TIMEOUT_MS });
      // The list has loaded (empty) and the socket has joined: socket.io's CONNECT answer is "40".
      await tab.locator('.nv-notificationListEmptyNotice').waitFor({ timeout: UI_TIMEOUT_MS });
      await waitFor(() => socket.frames.some((frame) => frame.startsWith('40')), {
        timeoutMs: UI_TIMEOUT_MS,
        description: `the inbox socket to connect (sockets opened: ${socket.sockets.join(', ') || 'none'})`,
      });
      await expect(tab.locator('.nv-bellDot').count()).resolves.toBe(0);

      const trigger = await t
        .api('post', '/v1/events/trigger')
        .send({ name: workflow.identifier, to: subscriberId, payload: { orderId: 'A-7731' } });
      expect(trigger.status).toBe(201);

      const text = 'Order A-7731 has shipped, Ada';
      await tab.getByText(text).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(socket.frames.some((frame) => frame.includes('notification_received') && frame.includes(text))).toBe(true);
      expect(page.pageLoads()).toBe(1);
      await tab.locator('.nv-bellDot').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(tab.locator('.nv-notificationDot').count()).resolves.toBe(1);

      await tab.getByText(text).click();
      await tab.locator('.nv-notificationDot').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await tab.locator('.nv-bellDot').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      await waitFor(
        async () => {
          const list = await t.api('get', `/v2/subscribers/${subscriberId}/notifications`);
          return list.body.data?.length === 1 && list.body.data[0].isRead === true;
        },
        { timeoutMs: UI_TIMEOUT_MS, description: 'the API to show the notification read' },
      );
      expect(page.pageLoads()).toBe(1);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${problems.join('\n')}`, {
        cause: error,
      });
    }
  });
});
