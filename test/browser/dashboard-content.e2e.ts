import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { createIntegration, createSubscriber } from '../support/builders.js';
import { startHttpReceiver } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';
import {
  expectAccessible,
  startDashboard,
  UI_TIMEOUT_MS,
  type DashboardUnderTest,
  signInAs,
} from './dashboard-browser.js';

const SECRET = 'SG.browser-secret-value';
const CONDITIONS = [
  {
    isNegated: false,
    type: 'GROUP',
    value: 'AND',
    children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }],
  },
];

/** Confirms the page's Delete in its dialog. */
async function deleteThrough(page: Page, confirmLabel: string): Promise<void> {
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: confirmLabel }).click();
}

/** Replaces what a CodeMirror editor holds. */
async function typeJson(page: Page, label: string, value: unknown): Promise<void> {
  const editor = page.getByRole('textbox', { name: label });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // CodeMirror closes brackets as they are typed: inserting the text as one edit avoids doubling them.
  await page.keyboard.insertText(JSON.stringify(value));
}

async function saved(page: Page): Promise<void> {
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: UI_TIMEOUT_MS });
}

describe('integrations, layouts, contexts and variables in the dashboard', () => {
  let d: DashboardUnderTest;
  let editor: Page;

  const integration = async (identifier: string) => {
    const byKey = await d.t.api('get', '/v1/integrations');
    return byKey.body.find((row: { identifier: string }) => row.identifier === identifier);
  };

  beforeAll(async () => {
    d = await startDashboard();
    editor = await signInAs(d, 'editor');
  });

  afterAll(async () => {
    await d?.close();
  });

  it('creates an integration with its provider’s credentials, never shows the secret, and keeps it on an edit', () =>
    d.explained(async () => {
      await editor.getByRole('link', { name: 'Integrations', exact: true }).click();
      await editor.getByText('No email integration.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expectAccessible(editor);
      await editor.getByRole('link', { name: 'New integration' }).click();
      await editor.getByLabel('Provider').selectOption('sendgrid');
      await editor.getByLabel('Name', { exact: true }).fill('Main mail');
      await editor.getByLabel('Identifier').fill('main-mail');
      await editor.getByLabel('API key, secret').fill(SECRET);
      await editor.getByLabel('From address').fill('ops@example.com');
      await expectAccessible(editor);
      await editor.getByRole('button', { name: 'Create integration' }).click();
      await editor.getByRole('heading', { name: 'Main mail' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const created = await integration('main-mail');
      expect(new URL(editor.url()).pathname).toBe(`/dashboard/integrations/${created._id}`);
      expect(created).toMatchObject({ providerId: 'sendgrid', channel: 'email', active: true, primary: true });
      expect(created.credentials).toEqual({ apiKey: SECRET, from: 'ops@example.com' });

      // The page reads the integration back: its from address, never its key.
      await editor.reload();
      await editor.getByLabel('From address').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await editor.getByLabel('From address').inputValue()).toBe('ops@example.com');
      expect(await editor.getByLabel('API key, secret').inputValue()).toBe('');
      expect(await editor.content()).not.toContain(SECRET);
      await expectAccessible(editor);

      await editor.getByLabel('Name', { exact: true }).fill('Main mail EU');
      await editor.getByLabel('From address').fill('news@example.com');
      await editor.getByLabel('Region (eu) (optional)').fill('eu');
      await typeJson(editor, 'Conditions (JSON)', CONDITIONS);
      await editor.getByRole('checkbox', { name: 'Active' }).uncheck();
      await editor.getByRole('button', { name: 'Save integration' }).click();
      await saved(editor);
      const edited = await integration('main-mail');
      expect(edited).toMatchObject({ name: 'Main mail EU', active: false, conditions: CONDITIONS });
      expect(edited.credentials).toEqual({ apiKey: SECRET, from: 'news@example.com', region: 'eu' });
    }));

  it('makes an integration primary, sends a test through it, and deletes it', () =>
    d.explained(async () => {
      // main-mail is inactive now, so backup-mail becomes the primary, and extra-mail is the one to promote.
      for (const identifier of ['backup-mail', 'extra-mail'])
        expect(
          (
            await d.t
              .api('post', '/v1/integrations')
              .send({ providerId: 'resend', channel: 'email', identifier, credentials: { apiKey: 're_x' } })
          ).status,
        ).toBe(201);
      const extra = await integration('extra-mail');
      expect(extra.primary).toBe(false);
      await d.t.api('post', '/v1/workflows').send({
        name: 'Mail test',
        steps: [{ template: { type: 'email', subject: 'Hi', content: 'Hello' } }],
      });
      const subscriber = await createSubscriber(d.t, { email: 'reader@example.com' });
      await editor.goto(`${d.url}/integrations/${extra._id}`);
      await editor.getByRole('button', { name: 'Make primary' }).click();
      await waitFor(async () => (await integration('extra-mail')).primary === true, {
        timeoutMs: UI_TIMEOUT_MS,
        description: 'extra-mail to become primary',
      });
      await editor.getByRole('button', { name: 'Make primary' }).waitFor({ state: 'detached' });

      await editor.getByLabel('Workflow', { exact: true }).selectOption({ label: 'Mail test' });
      await editor.getByLabel('Test subscriber id').fill(String(subscriber.subscriberId));
      await editor.getByRole('button', { name: 'Send test' }).click();
      await editor.getByRole('link', { name: 'see it in Activity' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expectAccessible(editor);

      await deleteThrough(editor, 'Delete integration');
      await editor.getByRole('heading', { name: 'Integrations', exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await integration('extra-mail')).toBeUndefined();
    }));

  it('sends a chat test through the integration of its page, to the subscriber’s webhook for that integration only', () =>
    d.explained(async () => {
      const receiver = await startHttpReceiver();
      try {
        for (const identifier of ['team-chat', 'ops-chat'])
          await createIntegration(d.t, { providerId: 'slack', channel: 'chat', identifier });
        const ops = await integration('ops-chat');
        await d.t.api('post', '/v1/workflows').send({
          name: 'Chat test',
          steps: [{ template: { type: 'chat', content: 'Build {{payload.build}} is green' } }],
        });
        const subscriber = await createSubscriber(d.t);
        for (const identifier of ['team-chat', 'ops-chat'])
          expect(
            (
              await d.t.api('patch', `/v1/subscribers/${subscriber.subscriberId}/credentials`).send({
                providerId: 'slack',
                integrationIdentifier: identifier,
                credentials: { webhookUrl: `${receiver.url}/hooks/${identifier}` },
              })
            ).status,
          ).toBe(200);

        await editor.goto(`${d.url}/integrations/${ops._id}`);
        await editor.getByText('credentials for this integration').waitFor({ timeout: UI_TIMEOUT_MS });
        await editor.getByLabel('Workflow', { exact: true }).selectOption({ label: 'Chat test' });
        await editor.getByLabel('Test subscriber id').fill(String(subscriber.subscriberId));
        await editor.getByRole('button', { name: 'Send test' }).click();
        await editor.getByRole('link', { name: 'see it in Activity' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await waitFor(() => receiver.requests.length > 0, {
          timeoutMs: UI_TIMEOUT_MS,
          description: 'the chat message at a webhook',
        });
        // The step has settled once its message exists: a second webhook would have been called by then.
        await waitFor(
          async () =>
            (await d.t.api('get', `/v1/messages?subscriberId=${subscriber.subscriberId}&channel=chat`)).body.data
              ?.length === 1,
          { timeoutMs: UI_TIMEOUT_MS, description: 'the chat message stored' },
        );
        expect(receiver.requests.map((request) => request.url)).toEqual(['/hooks/ops-chat']);
      } finally {
        await receiver.close();
      }
    }));

  it('creates a layout, edits its HTML with the API’s message for a missing slot, previews it and deletes it', () =>
    d.explained(async () => {
      await editor.getByRole('link', { name: 'Layouts', exact: true }).click();
      await editor.getByRole('heading', { name: 'Layouts' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expectAccessible(editor);
      await editor.getByLabel('Layout name').fill('Brand');
      await editor.getByLabel('Layout identifier').fill('brand');
      await editor.getByRole('checkbox', { name: /default layout/ }).check();
      await editor.getByRole('button', { name: 'Create layout' }).click();
      await editor.getByRole('heading', { name: 'Brand' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.api('get', '/v2/layouts/brand')).body).toMatchObject({ name: 'Brand', isDefault: true });

      const html = editor.getByLabel('HTML (with a {{content}} slot)');
      await html.fill('<div>no slot here</div>');
      await editor.getByRole('button', { name: 'Save layout' }).click();
      await editor.locator('#layout-body-error').waitFor({ timeout: UI_TIMEOUT_MS });
      await html.fill('<main>{{content}}</main><footer>Acme Inc.</footer>');
      await editor.getByRole('button', { name: 'Save layout' }).click();
      await saved(editor);
      const stored = (await d.t.api('get', '/v2/layouts/brand')).body;
      expect(stored.controls.values.email.body).toBe('<main>{{content}}</main><footer>Acme Inc.</footer>');

      await editor.getByRole('button', { name: 'Preview' }).click();
      const frame = editor.locator('iframe[title="Layout preview"]');
      await frame.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await frame.getAttribute('srcdoc')).toContain('Acme Inc.');
      await expectAccessible(editor);

      // The default layout dresses the email step of the workflow made above: the API refuses, the page says why.
      await deleteThrough(editor, 'Delete layout');
      await editor.getByText(/used by 1 workflow/).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(
        (await d.t.api('post', '/v2/layouts').send({ layoutId: 'plain', name: 'Plain', isDefault: true })).status,
      ).toBe(201);
      await deleteThrough(editor, 'Delete layout');
      await editor.getByRole('heading', { name: 'Layouts' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.api('get', '/v2/layouts/brand')).status).toBe(404);
    }));

  it('creates a context with JSON data, replaces the data and deletes it', () =>
    d.explained(async () => {
      await editor.getByRole('link', { name: 'Contexts', exact: true }).click();
      await editor.getByText('No contexts yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      await editor.getByLabel('Context type').fill('tenant');
      await editor.getByLabel('Context id').fill('acme');
      await typeJson(editor, 'Context data (JSON)', { name: 'Acme' });
      await expectAccessible(editor);
      await editor.getByRole('button', { name: 'Create context' }).click();
      await editor.getByRole('heading', { name: 'Context tenant acme' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.api('get', '/v2/contexts/tenant/acme')).body.data).toEqual({ name: 'Acme' });

      await typeJson(editor, 'Context data (JSON)', { name: 'Acme Corp', plan: 'pro' });
      await editor.getByRole('button', { name: 'Save context' }).click();
      await saved(editor);
      expect((await d.t.api('get', '/v2/contexts/tenant/acme')).body.data).toEqual({ name: 'Acme Corp', plan: 'pro' });
      await expectAccessible(editor);

      await deleteThrough(editor, 'Delete context');
      await editor.getByText('No contexts yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.api('get', '/v2/contexts/tenant/acme')).status).toBe(404);
    }));

  it('creates variables with a value per environment, keeps a secret write-only, edits and deletes', () =>
    d.explained(async () => {
      const production = (await d.t.createKeyFor('Production')).environment.id;
      await editor.getByRole('link', { name: 'Environment variables', exact: true }).click();
      await editor.getByText('No variables yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expectAccessible(editor);
      await editor.getByLabel('Key (UPPER_SNAKE_CASE)').fill('SUPPORT_EMAIL');
      await editor.getByLabel('Development', { exact: true }).fill('dev@acme.test');
      await editor.getByLabel('Production', { exact: true }).fill('help@acme.test');
      await editor.getByRole('button', { name: 'Create variable' }).click();
      await editor.getByRole('heading', { name: 'SUPPORT_EMAIL' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const values = async (key: string) =>
        Object.fromEntries(
          (await d.t.api('get', `/v1/environment-variables/${key}`)).body.values.map(
            (value: { _environmentId: string; value: string }) => [value._environmentId, value.value],
          ),
        );
      expect(await values('SUPPORT_EMAIL')).toEqual({
        [d.t.environment.id]: 'dev@acme.test',
        [production]: 'help@acme.test',
      });

      await editor.getByLabel('Development', { exact: true }).fill('support@acme.test');
      await editor.getByLabel('Production', { exact: true }).fill('');
      await editor.getByRole('button', { name: 'Save variable' }).click();
      await saved(editor);
      expect(await values('SUPPORT_EMAIL')).toEqual({ [d.t.environment.id]: 'support@acme.test' });
      await deleteThrough(editor, 'Delete variable');
      await editor.getByText('No variables yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await d.t.api('get', '/v1/environment-variables/SUPPORT_EMAIL')).status).toBe(404);

      await editor.getByLabel('Key (UPPER_SNAKE_CASE)').fill('MAIL_TOKEN');
      await editor.getByRole('checkbox', { name: /Secret/ }).check();
      await editor.getByLabel('Development', { exact: true }).fill('tok-dev-secret');
      await editor.getByRole('button', { name: 'Create variable' }).click();
      await editor.getByRole('heading', { name: 'MAIL_TOKEN' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await editor.getByLabel('Development', { exact: true }).inputValue()).toBe('');
      await editor.getByLabel('Production', { exact: true }).fill('tok-prod-secret');
      await editor.getByRole('button', { name: 'Save variable' }).click();
      await saved(editor);
      // Left empty, the Development secret stays; both read as the mask.
      expect(Object.keys(await values('MAIL_TOKEN')).sort()).toEqual([d.t.environment.id, production].sort());
      expect(await editor.content()).not.toContain('tok-dev-secret');
      await expectAccessible(editor);
    }));

  it('shows a viewer every new page without a write control', () =>
    d.explained(async () => {
      const viewer = await signInAs(d, 'viewer');
      const mail = await integration('main-mail');
      await d.t.api('post', '/v2/contexts').send({ type: 'tenant', id: 'globex', data: { name: 'Globex' } });
      const pages: [string, string][] = [
        ['/integrations', 'Integrations'],
        [`/integrations/${mail._id}`, 'Main mail EU'],
        ['/layouts', 'Layouts'],
        ['/layouts/plain', 'Plain'],
        ['/contexts', 'Contexts'],
        ['/contexts/tenant/globex', 'Context tenant globex'],
        ['/environment-variables', 'Environment variables'],
        ['/environment-variables/MAIL_TOKEN', 'MAIL_TOKEN'],
      ];
      for (const [path, heading] of pages) {
        await viewer.goto(`${d.url}${path}`);
        await viewer.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
        await viewer.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
        await expectAccessible(viewer);
        const writes = viewer.getByRole('button', { name: /Create|Save|Delete|Make primary|Send test/ });
        await expect(writes.count()).resolves.toBe(0);
        await expect(viewer.getByRole('link', { name: 'New integration' }).count()).resolves.toBe(0);
      }
      await viewer.goto(`${d.url}/integrations/${mail._id}`);
      await viewer.getByText('news@example.com').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await viewer.content()).not.toContain(SECRET);
    }));
});
