import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { createDashboardUser, TEST_PASSWORD } from '../support/dashboard.js';
import { expectAccessible, startDashboard, UI_TIMEOUT_MS, type DashboardUnderTest } from './dashboard-browser.js';

/** A user of this role signed in through the login page, on the Environments page. */
async function onEnvironmentsPage(d: DashboardUnderTest, role: 'admin' | 'editor'): Promise<Page> {
  const user = await createDashboardUser(d.t, role);
  const page = await d.newPage();
  await page.goto(`${d.url}/environments`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel(/^Password/).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Environments & API keys' }).waitFor({ timeout: UI_TIMEOUT_MS });
  return page;
}

describe('the Environments & API keys page in Chromium', () => {
  let d: DashboardUnderTest;

  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('creates a key shown once with a copy button, revokes it after a confirmation, and the API refuses it', () =>
    d.explained(async () => {
      const admin = await onEnvironmentsPage(d, 'admin');
      await admin.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const keys = admin.getByRole('region', { name: 'API keys of Development' });
      await keys.getByRole('cell', { name: `${d.t.apiKey.slice(0, 8)}…`, exact: true }).waitFor();
      await expectAccessible(admin);

      await keys.getByRole('button', { name: 'Create API key' }).click();
      const shown = keys.getByLabel('New API key');
      await shown.waitFor();
      const key = (await shown.textContent())!;
      expect((await d.t.api('get', '/v1/environments/me', key)).status).toBe(200);
      await keys.getByRole('button', { name: 'Copy' }).click();
      await keys.getByText('Copied to the clipboard.').waitFor();
      expect(await admin.evaluate('navigator.clipboard.readText()')).toBe(key);
      const row = keys.getByRole('row', { name: new RegExp(`${key.slice(0, 8)}…`) });
      await row.waitFor();
      await expectAccessible(admin);

      // Shown once: a reload lists its prefix only.
      await admin.reload();
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(admin.getByText(key).count()).resolves.toBe(0);

      await row.getByRole('button', { name: /^Revoke/ }).click();
      const dialog = admin.getByRole('alertdialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await d.t.api('get', '/v1/environments/me', key)).status).toBe(200);
      await row.getByRole('button', { name: /^Revoke/ }).click();
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await d.t.api('get', '/v1/environments/me', key)).status).toBe(401);
      expect((await d.t.api('get', '/v1/environments/me')).status).toBe(200);
    }));

  it('switches the HMAC requirement of an environment', () =>
    d.explained(async () => {
      const admin = await onEnvironmentsPage(d, 'admin');
      const production = admin.getByRole('row', { name: /Production/ });
      await production.getByRole('button', { name: 'Require HMAC in Production' }).click();
      await production.getByRole('button', { name: 'Stop requiring HMAC in Production' }).waitFor();
      const listed = await d.t.api('get', '/v1/environments');
      expect(listed.body.find((one: { name: string }) => one.name === 'Production').requireHmac).toBe(true);
      await production.getByRole('button', { name: 'Stop requiring HMAC in Production' }).click();
      await production.getByRole('button', { name: 'Require HMAC in Production' }).waitFor();
    }));

  it('shows an editor no key or HMAC controls', () =>
    d.explained(async () => {
      const editor = await onEnvironmentsPage(d, 'editor');
      await editor.getByRole('cell', { name: 'Production' }).waitFor();
      await expect(editor.getByRole('region', { name: /^API keys/ }).count()).resolves.toBe(0);
      for (const name of [/Create API key/, /^Revoke/, /HMAC/])
        await expect(editor.getByRole('button', { name }).count()).resolves.toBe(0);
      await expectAccessible(editor);
    }));
});
