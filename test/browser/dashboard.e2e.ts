import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { DashboardUsersService } from '#application';
import { EnvironmentRepository } from '#dal';
import { createSubscriber } from '../support/builders.js';
import { signIn } from '../support/dashboard.js';
import { createWorkflow, inApp, step } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import {
  expectAccessible,
  recordScripts,
  screenshot,
  startDashboard,
  UI_TIMEOUT_MS,
  type DashboardUnderTest,
} from './dashboard-browser.js';

const ADMIN = { email: 'first-admin@example.com', password: 'a long first passphrase' };
const VIEWER = { email: 'viewer@example.com', password: 'a long viewer passphrase' };
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

/** Fills the login form's fields the way a person does: by their labels. */
async function fillCredentials(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
}

async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await fillCredentials(page, email, password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the dashboard in Chromium', () => {
  let d: DashboardUnderTest;
  let admin: Page;
  let viewer: Page;

  beforeAll(async () => {
    d = await startDashboard();
    admin = await d.newPage();
  });

  afterAll(async () => {
    await d?.close();
  });

  it('creates the first admin from the setup link, keeping the input of a refused try, within the JavaScript budget', () =>
    d.explained(async () => {
      const token = await d.t.app.get(DashboardUsersService).issueSetupToken();
      expect(token).toBeDefined();
      const scripts = recordScripts(admin);
      await admin.goto(`${d.url}/setup#token=${token}`);

      await fillCredentials(admin, ADMIN.email, 'too short');
      await admin.getByRole('button', { name: 'Create admin and sign in' }).click();
      const passwordError = admin.locator('#password-error');
      await passwordError.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await passwordError.textContent()).toMatch(/password/i);
      expect(await admin.getByLabel('Email').inputValue()).toBe(ADMIN.email);
      expect(await admin.getByLabel(/^Password/).getAttribute('aria-invalid')).toBe('true');

      await admin.getByLabel(/^Password/).fill(ADMIN.password);
      await admin.getByRole('button', { name: 'Create admin and sign in' }).click();
      await admin.getByRole('heading', { name: 'Activity' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await admin.getByText('No notifications match.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(admin.url()).pathname).toBe('/dashboard/activity');
      await expect(admin.getByText(`${ADMIN.email} (admin)`).count()).resolves.toBe(1);

      const initialJs = await scripts.gzippedBytes();
      expect(scripts.urls.length).toBeGreaterThan(0);
      expect(scripts.urls.every((url) => url.startsWith(`${d.url}/assets/`))).toBe(true);
      expect(initialJs).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
      process.stdout.write(`dashboard initial JavaScript: ${(initialJs / 1024).toFixed(1)} KB gzipped\n`);
      await expectAccessible(admin);

      // The API knows the admin, and the link is spent.
      const session = await signIn(d.t, ADMIN.email, ADMIN.password);
      const users = await session.send('get', '/v1/dashboard/users');
      expect(users.body.map((user: { email: string; role: string }) => [user.email, user.role])).toEqual([
        [ADMIN.email, 'admin'],
      ]);
      expect(await d.t.app.get(DashboardUsersService).issueSetupToken()).toBeUndefined();
    }));

  it('shows a triggered notification in Activity without a reload, filters it by URL, and opens its timeline', () =>
    d.explained(async () => {
      await createSubscriber(d.t, { subscriberId: 'dash-reader', firstName: 'Ada' });
      const workflow = await createWorkflow(d.t, {
        steps: [inApp('Order {{payload.orderId}} shipped, {{subscriber.firstName}}')],
      });
      let documentLoads = 0;
      admin.on('framenavigated', (frame) => {
        if (frame === admin.mainFrame()) documentLoads += 1;
      });
      const trigger = await d.t
        .api('post', '/v1/events/trigger')
        .send({ name: workflow.identifier, to: 'dash-reader', payload: { orderId: 'A-7731' } });
      expect(trigger.status).toBe(201);

      const row = admin.getByRole('row', { name: /dash-reader/ });
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(documentLoads).toBe(0);
      await expect(row.getByText(workflow.identifier).count()).resolves.toBe(1);
      await expect(row.getByText(trigger.body.transactionId).count()).resolves.toBe(1);

      await admin.getByLabel('Subscriber id').fill('somebody-else');
      await admin.getByRole('button', { name: 'Apply' }).click();
      await admin.getByText('No notifications match.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(admin.url()).searchParams.get('subscriberId')).toBe('somebody-else');
      await admin.getByLabel('Subscriber id').fill('dash-reader');
      await admin.getByRole('button', { name: 'Apply' }).click();
      await row.waitFor({ timeout: UI_TIMEOUT_MS });

      await row.getByRole('link').click();
      await admin.getByRole('heading', { name: /^Notification/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      // The in-app job completes, and its rendered message shows under it.
      await admin.getByText('Order A-7731 shipped, Ada').waitFor({ timeout: UI_TIMEOUT_MS });
      const job = admin.locator('.job', { hasText: 'in_app' });
      await job.getByText('completed', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await screenshot(admin, 'notification');
      await expect(job.locator('.details li').count()).resolves.toBeGreaterThan(0);
      await expectAccessible(admin);

      // The page's address is a deep link: loaded afresh, it shows the same notification.
      await admin.reload();
      await admin.getByText('Order A-7731 shipped, Ada').waitFor({ timeout: UI_TIMEOUT_MS });
    }));

  it('narrows Activity by status, kept in the URL', () =>
    d.explained(async () => {
      await createSubscriber(d.t, { subscriberId: 'status-reader' });
      const now = await createWorkflow(d.t, { steps: [inApp('Sent now')] });
      const later = await createWorkflow(d.t, {
        steps: [
          step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }),
          inApp(),
        ],
      });
      for (const workflow of [now, later]) {
        const trigger = await d.t
          .api('post', '/v1/events/trigger')
          .send({ name: workflow.identifier, to: 'status-reader' });
        expect(trigger.status).toBe(201);
      }
      await admin.goto(`${d.url}/activity?subscriberId=status-reader`);
      const rows = admin.getByRole('row', { name: /status-reader/ });
      // The list refreshes itself: both show, the in-app one once delivered.
      await admin.getByRole('row', { name: /status-reader.*done/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(rows.count()).resolves.toBe(2);

      const showOnly = async (label: string, workflow: { identifier: string }) => {
        await admin.getByRole('combobox', { name: /^Status/ }).selectOption({ label });
        await admin.getByRole('button', { name: 'Apply' }).click();
        // The row of the filter applied before may still be the only one shown: wait for this one's.
        await waitFor(
          async () => (await rows.count()) === 1 && (await rows.getByText(workflow.identifier).count()) === 1,
          {
            description: `only the ${label} notification`,
          },
        );
      };
      await showOnly('in progress', later);
      expect(new URL(admin.url()).searchParams.get('status')).toBe('pending');
      await showOnly('done', now);
      expect(new URL(admin.url()).searchParams.get('status')).toBe('completed');
      await admin.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'failed' });
      await admin.getByRole('button', { name: 'Apply' }).click();
      await admin.getByText('No notifications match.').waitFor({ timeout: UI_TIMEOUT_MS });
    }));

  it('finds the subscriber and shows their inbox as they see it; a click there marks the message read', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'Subscribers', exact: true }).click();
      await admin.getByLabel('Subscriber id contains').fill('dash-');
      await admin.getByRole('button', { name: 'Search' }).click();
      await admin.getByRole('link', { name: 'dash-reader' }).click();
      await admin.getByRole('heading', { name: 'Subscriber dash-reader' }).waitFor();
      await expect(admin.locator('.facts').textContent()).resolves.toContain('Ada');
      // Novu's Inbox UI is checked by its makers, not here: its bell button has no accessible name.
      await admin.locator('.nv-inbox__popoverTrigger').waitFor();
      await expectAccessible(admin, ['.subscriber-inbox']);

      // Novu's Inbox UI, talking to this service as a product's page does.
      await admin.locator('.nv-inbox__popoverTrigger').click();
      const message = admin.getByText('Order A-7731 shipped, Ada');
      await message.waitFor();
      await expect(admin.locator('.nv-notificationDot').count()).resolves.toBe(1);
      await screenshot(admin, 'subscriber');
      await message.click();
      await admin.locator('.nv-notificationDot').waitFor({ state: 'detached' });
      await waitFor(
        async () => {
          const feed = await d.t.api('get', '/v2/subscribers/dash-reader/notifications');
          return feed.body.data?.length === 1 && feed.body.data[0].isRead === true;
        },
        { timeoutMs: UI_TIMEOUT_MS, description: 'the API to show the message read' },
      );
      await admin.keyboard.press('Escape');
    }));

  it('shows the inbox where the environment requires HMAC: the server signs the session, no key in the page', () =>
    d.explained(async () => {
      const environments = d.t.app.get(EnvironmentRepository);
      await environments.setRequireHmac(d.t.environment.id, true);
      try {
        const signing = admin.waitForResponse((response) => response.url().includes('/v1/dashboard/inbox-preview/'));
        const session = admin.waitForResponse((response) => response.url().endsWith('/v1/inbox/session'));
        await admin.reload();
        expect((await signing).status()).toBe(200);
        expect((await session).status()).toBe(201);
        await admin.locator('.nv-inbox__popoverTrigger').click();
        await admin.getByText('Order A-7731 shipped, Ada').waitFor();
        await admin.keyboard.press('Escape');
        expect(await admin.content()).not.toContain(d.t.apiKey);
      } finally {
        await environments.setRequireHmac(d.t.environment.id, false);
      }
    }));

  it('creates a topic, showing the API’s message for a bad key, and lists its subscribers', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'Topics', exact: true }).click();
      await admin.getByText('No topics yet.').waitFor();
      await admin.getByLabel('Topic key').fill('not a key!');
      await admin.getByLabel('Topic name').fill('News');
      await admin.getByRole('button', { name: 'Create topic' }).click();
      await admin.locator('#topic-key-error').waitFor();
      expect(await admin.getByLabel('Topic name').inputValue()).toBe('News');
      await admin.getByLabel('Topic key').fill('dash-news');
      await admin.getByRole('button', { name: 'Create topic' }).click();
      await admin.getByRole('link', { name: 'dash-news' }).waitFor();
      await expectAccessible(admin);

      const joined = await d.t
        .api('post', '/v2/topics/dash-news/subscriptions')
        .send({ subscriptions: ['dash-reader'] });
      expect(joined.status).toBeLessThan(300);
      await admin.getByRole('link', { name: 'dash-news' }).click();
      await admin.getByRole('link', { name: 'dash-reader' }).click();
      await admin.getByRole('list', { name: 'Topics' }).getByText('News').waitFor();
    }));

  it('shows the process’s health, queue depth and delivery counts on the System page', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'System', exact: true }).click();
      await expect(admin.getByLabel('Health').textContent()).resolves.toMatch(/"status": "(ok|degraded)"/);
      const deliveries = admin.getByRole('region', { name: 'Deliveries' });
      await deliveries
        .getByRole('row', { name: /in_app/ })
        .first()
        .waitFor();
      await admin.getByRole('region', { name: 'Queue depth' }).getByRole('table').waitFor();
      await expectAccessible(admin);
    }));

  it('creates an environment showing its key once, refuses a bad retention next to its field, and deletes it', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'Environments', exact: true }).click();
      await admin.getByLabel('Environment name').fill('Staging');
      await admin.getByRole('button', { name: 'Create environment' }).click();
      const shown = admin.getByText(/API key of Staging \(shown once/);
      await shown.waitFor();
      const key = (await shown.locator('code').textContent())!;
      const me = await d.t.api('get', '/v1/environments/me', key);
      expect([me.status, me.body.name]).toEqual([200, 'Staging']);
      await admin
        .getByRole('combobox', { name: /^Environment/ })
        .locator('option', { hasText: 'Staging' })
        .waitFor({ state: 'attached' });
      await expectAccessible(admin);

      const retention = admin.getByRole('form', { name: 'Retention of Staging' });
      await retention.getByLabel(/^Activity days/).fill('0');
      await retention.getByRole('button', { name: 'Save retention' }).click();
      await retention.locator('.field-error').waitFor();
      expect(await retention.getByLabel(/^Activity days/).inputValue()).toBe('0');
      await retention.getByLabel(/^Activity days/).fill('7');
      await retention.getByRole('button', { name: 'Save retention' }).click();
      await retention.getByText('Activity days (7 in force)').waitFor();
      const listed = await d.t.api('get', '/v1/environments');
      const staging = listed.body.find((environment: { name: string }) => environment.name === 'Staging');
      expect(staging.retention.activityDaysOverride).toBe(7);

      await admin
        .getByRole('row', { name: /Staging/ })
        .getByRole('button', { name: 'Delete' })
        .click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete environment' }).click();
      await admin.getByRole('row', { name: /Staging/ }).waitFor({ state: 'detached' });
      expect((await d.t.api('get', '/v1/environments/me', key)).status).toBe(401);
    }));

  it('scopes every call to the environment picked in the header', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'Activity', exact: true }).click();
      await admin.getByRole('row', { name: /dash-reader/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await screenshot(admin, 'activity');
      const production = (await d.t.createKeyFor('Production')).environment;
      const scoped = admin.waitForRequest(
        (request) =>
          request.url().includes('/v1/notifications') && request.headers()['x-environment-id'] === production.id,
      );
      await admin.getByLabel('Environment').selectOption({ label: 'Production' });
      await scoped;
      await admin.getByText('No notifications match.').waitFor({ timeout: UI_TIMEOUT_MS });
      await admin.getByLabel('Environment').selectOption({ label: 'Development' });
      await admin.getByRole('row', { name: /dash-reader/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    }));

  it('lets the admin add a viewer, showing the API’s field message and keeping the input on a refused save', () =>
    d.explained(async () => {
      await admin.getByRole('link', { name: 'Users' }).click();
      await admin.getByRole('cell', { name: ADMIN.email }).waitFor({ timeout: UI_TIMEOUT_MS });
      await admin.getByLabel('Email').fill(VIEWER.email);
      await admin.getByLabel(/^Password/).fill('short');
      await admin.getByLabel('Role', { exact: true }).selectOption('viewer');
      await admin.getByRole('button', { name: 'Add user' }).click();
      const passwordError = admin.locator('#new-password-error');
      await passwordError.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await passwordError.textContent()).toMatch(/password/i);
      expect(await admin.getByLabel('Email').inputValue()).toBe(VIEWER.email);

      await admin.getByLabel(/^Password/).fill(VIEWER.password);
      await admin.getByRole('button', { name: 'Add user' }).click();
      await admin.getByRole('cell', { name: VIEWER.email }).waitFor({ timeout: UI_TIMEOUT_MS });
      await screenshot(admin, 'users');
      await expect(admin.locator('#new-password-error').count()).resolves.toBe(0);
      await expectAccessible(admin);

      const session = await signIn(d.t, ADMIN.email, ADMIN.password);
      const users = await session.send('get', '/v1/dashboard/users');
      expect(users.body.find((user: { email: string }) => user.email === VIEWER.email)?.role).toBe('viewer');
    }));

  it('sends a viewer from a deep link through the login and back, shows no admin or edit controls, and the API refuses a forged write', () =>
    d.explained(async () => {
      viewer = await d.newPage();
      await viewer.goto(`${d.url}/activity?subscriberId=dash-reader`);
      await viewer.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(viewer.url()).pathname).toBe('/dashboard/login');
      await expectAccessible(viewer);

      await signInThroughPage(viewer, VIEWER.email, 'not the password at all');
      await viewer.getByText('Wrong email or password').waitFor({ timeout: UI_TIMEOUT_MS });
      await signInThroughPage(viewer, VIEWER.email, VIEWER.password);
      await viewer.getByRole('row', { name: /dash-reader/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(viewer.url()).search).toBe('?subscriberId=dash-reader');

      await expect(viewer.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
      await viewer.goto(`${d.url}/users`);
      await viewer.getByText('This page is for admins.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(viewer.getByRole('button', { name: 'Add user' }).count()).resolves.toBe(0);
      await viewer.getByRole('link', { name: 'Environments', exact: true }).click();
      await viewer.getByRole('cell', { name: 'Production' }).waitFor();
      for (const name of ['Create environment', 'Save retention', 'Delete'])
        await expect(viewer.getByRole('button', { name }).count()).resolves.toBe(0);

      const forged = await viewer.evaluate(async () => {
        const session = (await (await fetch('/v1/dashboard/session')).json()) as {
          csrfToken: string;
          environments: { id: string }[];
        };
        const response = await fetch('/v1/workflows', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-CSRF-Token': session.csrfToken,
            'X-Environment-Id': session.environments[0].id,
          },
          body: JSON.stringify({ name: 'Forged', steps: [] }),
        });
        return { status: response.status, body: (await response.json()) as { message: string } };
      });
      expect(forged.status).toBe(403);
      expect(forged.body.message).toMatch(/editor/);
    }));

  it('sends a signed-in page back to the login once its session is revoked', () =>
    d.explained(async () => {
      await viewer.goto(`${d.url}/activity`);
      await viewer.getByRole('row', { name: /dash-reader/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      await admin.getByRole('link', { name: 'Users' }).click();
      // A change of role ends the user's sessions.
      await admin.getByLabel(`Role of ${VIEWER.email}`).selectOption('editor');
      await viewer.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(new URL(viewer.url()).pathname).toBe('/dashboard/login');
      const session = await signIn(d.t, ADMIN.email, ADMIN.password);
      const users = await session.send('get', '/v1/dashboard/users');
      expect(users.body.find((user: { email: string }) => user.email === VIEWER.email)?.role).toBe('editor');
      await viewer.context().close();
    }));

  it('signs out: the login page shows, and the cookie opens nothing any more', () =>
    d.explained(async () => {
      const cookie = (await admin.context().cookies()).find((one) => one.name === 'dashboard_session');
      expect(cookie).toBeDefined();
      await admin.getByRole('button', { name: 'Sign out' }).click();
      await admin.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const after = await d.t.http.get('/v1/dashboard/session').set('Cookie', `dashboard_session=${cookie!.value}`);
      expect(after.status).toBe(401);
      await admin.context().close();
      expect(d.problems).toEqual([]);
    }));
});
