import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { createDashboardUser, TEST_PASSWORD } from '../support/dashboard.js';
import { startDashboard, UI_TIMEOUT_MS, type DashboardUnderTest } from './dashboard-browser.js';

async function onSystemPage(d: DashboardUnderTest, role: 'admin' | 'viewer'): Promise<Page> {
  const user = await createDashboardUser(d.t, role);
  const page = await d.newPage();
  await page.goto(`${d.url}/system`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel(/^Password/).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'System' }).waitFor({ timeout: UI_TIMEOUT_MS });
  return page;
}

describe('the System page where METRICS_TOKEN guards /metrics', () => {
  let d: DashboardUnderTest;
  beforeAll(async () => {
    d = await startDashboard({ env: { METRICS_TOKEN: 'system-page-token-0001' } });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('shows the metrics to an admin, whose session reads them without the token', () =>
    d.explained(async () => {
      const admin = await onSystemPage(d, 'admin');
      await admin.getByRole('region', { name: 'Queue depth' }).getByRole('table').waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.http.get('/metrics')).status).toBe(401);
    }));

  it('tells a viewer the metrics are for admins', () =>
    d.explained(async () => {
      const viewer = await onSystemPage(d, 'viewer');
      await viewer.getByText(/\/metrics is for admins where METRICS_TOKEN is set/).waitFor({ timeout: UI_TIMEOUT_MS });
      await viewer.getByLabel('Health').waitFor();
    }));
});
