import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { createIntegration, createSubscriber } from '../support/builders.js';
import type { Body } from '../support/untyped-json.js';
import { waitFor } from '../support/wait.js';
import {
  expectAccessible,
  startDashboard,
  UI_TIMEOUT_MS,
  type DashboardUnderTest,
  signInAs,
} from './dashboard-browser.js';

const SUBSCRIBER_ID = 'edit-me';
const WORKFLOW_ID = 'weekly-report';
/** Novu's Inbox UI is checked by its makers, not here (see dashboard.e2e.ts). */
const INBOX = ['.subscriber-inbox'];

/** Replaces what a CodeMirror editor holds. */
async function typeJson(page: Page, label: string, value: unknown): Promise<void> {
  const editor = page.getByRole('textbox', { name: label });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // CodeMirror closes brackets as they are typed: inserting the text as one edit avoids doubling them.
  await page.keyboard.insertText(JSON.stringify(value));
}

/** Opens the subscriber's page and waits until everything on it has loaded. */
async function openSubscriber(d: DashboardUnderTest, page: Page): Promise<void> {
  await page.goto(`${d.url}/subscribers/${SUBSCRIBER_ID}`);
  await page.getByRole('heading', { name: `Subscriber ${SUBSCRIBER_ID}` }).waitFor({ timeout: UI_TIMEOUT_MS });
  await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' });
}

async function until(description: string, condition: () => Promise<boolean>): Promise<void> {
  await waitFor(condition, { timeoutMs: UI_TIMEOUT_MS, description });
}

describe('editing a subscriber and a workflow’s preferences in the dashboard', () => {
  let d: DashboardUnderTest;
  let editor: Page;
  let push: Body;
  let chat: Body;

  const stored = async () => (await d.t.api('get', `/v2/subscribers/${SUBSCRIBER_ID}`)).body;
  const preferences = async () => (await d.t.api('get', `/v2/subscribers/${SUBSCRIBER_ID}/preferences`)).body;
  const entry = async (providerId: string) =>
    (await stored()).channels.find((one: { providerId: string }) => one.providerId === providerId);
  const checked = (box: Locator, value: boolean) => async () => (await box.isChecked()) === value;

  beforeAll(async () => {
    d = await startDashboard();
    await createSubscriber(d.t, { subscriberId: SUBSCRIBER_ID, firstName: 'Ada', email: 'ada@example.com' });
    push = await createIntegration(d.t, { providerId: 'fcm', channel: 'push', identifier: 'app-push' });
    chat = await createIntegration(d.t, { providerId: 'slack', channel: 'chat', identifier: 'team-chat' });
    const workflow = await d.t.api('post', '/v1/workflows').send({
      name: 'Weekly report',
      identifier: WORKFLOW_ID,
      steps: [
        { template: { type: 'email', subject: 'Your week', content: 'Hello' } },
        { template: { type: 'in_app', content: 'Your week is ready' } },
      ],
    });
    expect(workflow.status).toBe(201);
    editor = await signInAs(d, 'editor');
  });

  afterAll(async () => {
    await d?.close();
  });

  it('edits the profile and its data, and reads them back through the API', () =>
    d.explained(async () => {
      await openSubscriber(d, editor);
      await expectAccessible(editor, INBOX);
      await editor.getByLabel('First name').fill('Grace');
      await editor.getByLabel('Locale').fill('en_GB');
      await editor.getByLabel('Time zone (IANA, e.g. Europe/Paris)').fill('Europe/London');
      await typeJson(editor, 'Data (JSON)', { plan: 'pro' });
      await editor.getByRole('button', { name: 'Save profile' }).click();
      await editor.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await stored()).toMatchObject({
        firstName: 'Grace',
        email: 'ada@example.com',
        locale: 'en_GB',
        timezone: 'Europe/London',
        data: { plan: 'pro' },
      });
      await expect(editor.locator('.facts').textContent()).resolves.toContain('Grace');
    }));

  it('refuses a bad email with the API’s message next to the field and keeps what was typed', () =>
    d.explained(async () => {
      await editor.getByLabel('Email', { exact: true }).fill('not an address');
      await editor.getByLabel('Last name').fill('Hopper');
      await editor.getByRole('button', { name: 'Save profile' }).click();
      const error = editor.locator('#profile-email-error');
      await error.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await error.textContent()).toMatch(/email/);
      await expect(editor.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await editor.getByLabel('Email', { exact: true }).inputValue()).toBe('not an address');
      expect(await editor.getByLabel('Last name').inputValue()).toBe('Hopper');
      await expectAccessible(editor, INBOX);
      expect(await stored()).toMatchObject({ email: 'ada@example.com', lastName: null });

      await editor.getByLabel('Email', { exact: true }).fill('grace@example.com');
      await editor.getByRole('button', { name: 'Save profile' }).click();
      await error.waitFor({ state: 'detached' });
      await until('the new email to be stored', async () => (await stored()).email === 'grace@example.com');
      expect((await stored()).lastName).toBe('Hopper');
    }));

  it('switches a workflow’s channel and a global channel off, each saved as it is flipped', () =>
    d.explained(async () => {
      const workflowEmail = editor.getByRole('checkbox', { name: 'Weekly report: email' });
      expect(await workflowEmail.isChecked()).toBe(true);
      // Only the channels of the workflow's steps have a switch.
      await expect(editor.getByRole('checkbox', { name: 'Weekly report: sms' }).count()).resolves.toBe(0);
      await workflowEmail.click();
      await until('the workflow’s email to be off', async () => {
        const one = (await preferences()).workflows.find(
          (item: { workflow: { identifier: string } }) => item.workflow.identifier === WORKFLOW_ID,
        );
        return one?.channels.email === false && one.channels.in_app === true;
      });
      await until('the switch to show it off', checked(workflowEmail, false));

      const globalSms = editor.getByRole('checkbox', { name: 'All workflows: sms' });
      await globalSms.click();
      await until('the global sms to be off', async () => (await preferences()).global.channels.sms === false);
      await until('the switch to show it off', checked(globalSms, false));
      await expectAccessible(editor, INBOX);
    }));

  it('sets a weekday’s hours in the schedule form, refuses a bad time next to its input, then removes the schedule', () =>
    d.explained(async () => {
      const schedule = async () => (await preferences()).global.schedule;
      const form = editor.getByRole('form', { name: 'Edit the delivery schedule' });
      await form.getByRole('radio', { name: /Only on these days and hours/ }).check();
      // A new schedule starts from weekdays at office hours: Monday gets a second range, Friday is switched off.
      await form.getByRole('button', { name: 'Add a range on Monday' }).click();
      const mondayStart = form.getByLabel('Monday, range 2: Start');
      await mondayStart.fill('25:00');
      await form.getByLabel('Monday, range 2: End').fill('02:00');
      await form.getByRole('switch', { name: 'Friday' }).uncheck();
      await form.getByRole('button', { name: 'Save schedule' }).click();
      const error = form.locator('#schedule-monday-1-start-error');
      await error.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await error.textContent()).toMatch(/HH:MM/);
      await expect(mondayStart.getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await mondayStart.inputValue()).toBe('25:00');
      expect(await form.getByRole('switch', { name: 'Friday' }).isChecked()).toBe(false);
      await expectAccessible(editor, INBOX);
      expect(await schedule()).toBeUndefined();

      // An end before the start is a range that crosses midnight, which the API takes.
      await mondayStart.fill('22:30');
      await form.getByRole('button', { name: 'Save schedule' }).click();
      await error.waitFor({ state: 'detached' });
      await editor
        .getByRole('list', { name: 'Delivery schedule' })
        .getByText('Monday: 09:00–17:00, 22:30–02:00')
        .waitFor();
      expect(await schedule()).toEqual({
        isEnabled: true,
        weeklySchedule: {
          monday: {
            isEnabled: true,
            hours: [
              { start: '09:00 AM', end: '05:00 PM' },
              { start: '10:30 PM', end: '02:00 AM' },
            ],
          },
          tuesday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
          wednesday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
          thursday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
          friday: { isEnabled: false },
          saturday: { isEnabled: false },
          sunday: { isEnabled: false },
        },
      });
      await expectAccessible(editor, INBOX);

      // Open all day: a day switched on without a range.
      await form.getByRole('switch', { name: 'Sunday' }).check();
      await form.getByRole('button', { name: 'Save schedule' }).click();
      await editor.getByRole('list', { name: 'Delivery schedule' }).getByText('Sunday: all day').waitFor();
      expect((await schedule()).weeklySchedule.sunday).toEqual({ isEnabled: true });

      await form.getByRole('radio', { name: /No schedule/ }).check();
      await form.getByRole('button', { name: 'Save schedule' }).click();
      await editor.getByText('No delivery schedule: messages are delivered at any hour.').waitFor();
      expect(await schedule()).toBeUndefined();
    }));

  it('adds and removes device tokens and a webhook URL, then all of a provider’s credentials', () =>
    d.explained(async () => {
      await editor.getByLabel('Integration', { exact: true }).selectOption(push._id);
      for (const token of ['token-a', 'token-b']) {
        await editor.getByLabel('Device token', { exact: true }).fill(token);
        await editor.getByRole('button', { name: 'Add device token' }).click();
        await editor.getByText(token, { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      }
      expect((await entry('fcm')).credentials.deviceTokens).toEqual(['token-a', 'token-b']);
      await expectAccessible(editor, INBOX);

      await editor.getByRole('button', { name: 'Remove device token token-a' }).click();
      await until('token-a to be removed', async () => {
        const tokens = (await entry('fcm')).credentials.deviceTokens;
        return tokens.length === 1 && tokens[0] === 'token-b';
      });

      await editor.getByLabel('Integration', { exact: true }).selectOption(chat._id);
      await editor.getByLabel('Webhook URL', { exact: true }).fill('https://hooks.example.com/team');
      await editor.getByRole('button', { name: 'Set webhook URL' }).click();
      await editor.getByRole('button', { name: 'Remove webhook URL' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await entry('slack')).credentials.webhookUrl).toBe('https://hooks.example.com/team');
      await editor.getByRole('button', { name: 'Remove webhook URL' }).click();
      await until(
        'the webhook URL to be removed',
        async () => (await entry('slack')).credentials.webhookUrl === undefined,
      );

      await editor.getByRole('button', { name: 'Remove all fcm credentials' }).click();
      await expectAccessible(editor, INBOX);
      await editor.getByRole('button', { name: 'Remove credentials' }).click();
      await until('the fcm entry to be gone', async () => (await entry('fcm')) === undefined);
      await editor.getByRole('button', { name: 'Remove all fcm credentials' }).waitFor({ state: 'detached' });
    }));

  it('edits a workflow’s channel defaults in the workflow form and the API stores them', () =>
    d.explained(async () => {
      await editor.goto(`${d.url}/workflows/${WORKFLOW_ID}`);
      await editor.getByRole('heading', { name: 'Weekly report' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expectAccessible(editor);
      await editor.getByRole('checkbox', { name: 'Email on by default' }).uncheck();
      await editor.getByRole('button', { name: 'Save', exact: true }).click();
      await editor.getByText('Saved.').waitFor({ timeout: UI_TIMEOUT_MS });
      const workflow = (await d.t.api('get', `/v2/workflows/${WORKFLOW_ID}`)).body;
      expect(workflow.preferences.default).toMatchObject({
        all: { readOnly: false },
        channels: { email: { enabled: false }, in_app: { enabled: true }, sms: { enabled: true } },
      });

      await editor.reload();
      const email = editor.getByRole('checkbox', { name: 'Email on by default' });
      await email.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await email.isChecked()).toBe(false);
      expect(await editor.getByRole('checkbox', { name: 'In-app on by default' }).isChecked()).toBe(true);
    }));

  it('edits the level subscribers start from where the workflow has one, keeping the author’s default', () =>
    d.explained(async () => {
      const level = (enabled: boolean) => ({ all: { enabled, readOnly: false }, channels: {} });
      const created = await d.t.api('post', '/v2/workflows').send({
        name: 'Digest',
        workflowId: 'digest',
        active: true,
        steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'Hello' } }],
        preferences: { user: level(true), workflow: level(false) },
      });
      expect(created.status).toBe(201);
      await editor.goto(`${d.url}/workflows/digest`);
      const push = editor.getByRole('checkbox', { name: 'Push on by default' });
      await push.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await push.isChecked()).toBe(true);
      await push.uncheck();
      await editor.getByRole('checkbox', { name: /Critical/ }).check();
      await editor.getByRole('button', { name: 'Save', exact: true }).click();
      await editor.getByText('Saved.').waitFor({ timeout: UI_TIMEOUT_MS });
      const { preferences } = (await d.t.api('get', '/v2/workflows/digest')).body;
      expect(preferences.user).toMatchObject({
        all: { readOnly: true },
        channels: { push: { enabled: false }, in_app: { enabled: true } },
      });
      expect(preferences.default).toMatchObject({ all: { enabled: false, readOnly: false } });
    }));

  it('shows a viewer the subscriber without a write control', () =>
    d.explained(async () => {
      const viewer = await signInAs(d, 'viewer');
      await openSubscriber(d, viewer);
      await viewer.getByRole('list', { name: 'Preferences' }).waitFor();
      await expect(viewer.locator('.facts').textContent()).resolves.toContain('Grace Hopper');
      await expectAccessible(viewer, INBOX);
      const details = viewer.locator('.subscriber-columns > div').first();
      await expect(details.locator('input, select, textarea, button, [contenteditable="true"]').count()).resolves.toBe(
        0,
      );
      await expect(viewer.getByRole('button', { name: /Save|Remove|Add|Set webhook/ }).count()).resolves.toBe(0);
    }));
});
