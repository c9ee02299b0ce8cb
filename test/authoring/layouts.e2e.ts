import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { layouts } from '#dal';
import { triggerAndSettle } from '../support/engine-fixtures.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';
import { createV1Workflow, emailThroughSmtp, mailTo, sdkWithKey, type SmtpReceiver } from './authoring-fixtures.js';

const BRAND_BODY =
  '<html><body>\n<h1>BRAND-HEADER for {{ subscriber.firstName }}</h1>\n{{ content }}\n<footer>BRAND-FOOTER</footer>\n</body></html>';

describe('@novu/api: layouts', () => {
  let sdk: SdkApp;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    sdk = await startSdkApp();
    smtp = await emailThroughSmtp(sdk);
  });
  afterAll(async () => {
    await smtp?.close();
    await sdk?.close();
  });

  it('create, retrieve, list, update, duplicate and preview pass the SDK; the first layout is the default', async () => {
    const created = await sdk.novu.layouts.create({ layoutId: 'brand', name: 'Brand' });
    expect(created.result).toMatchObject({ layoutId: 'brand', name: 'Brand', isDefault: true, origin: 'novu-cloud' });
    expect(created.result.controls.values.email?.body).toContain('{{content}}');

    const updated = await sdk.novu.layouts.update(
      { name: 'Brand v2', controlValues: { email: { body: BRAND_BODY, editorType: 'html' } } },
      'brand',
    );
    expect(updated.result).toMatchObject({ name: 'Brand v2', isDefault: true });
    expect(updated.result.controls.values.email).toEqual({ body: BRAND_BODY, editorType: 'html' });

    const second = await sdk.novu.layouts.create({ layoutId: 'plain', name: 'Plain' });
    expect(second.result.isDefault).toBe(false);
    const retrieved = await sdk.novu.layouts.retrieve(second.result.id);
    expect(retrieved.result.layoutId).toBe('plain');

    const copy = await sdk.novu.layouts.duplicate({ name: 'Brand copy' }, 'brand');
    expect(copy.result).toMatchObject({ layoutId: 'brand-copy', name: 'Brand copy', isDefault: false });
    expect(copy.result.controls.values.email?.body).toBe(BRAND_BODY);

    const page = await sdk.novu.layouts.list({ orderBy: 'name', orderDirection: 'ASC', limit: 2 });
    expect(page.result.totalCount).toBe(3);
    expect(page.result.layouts.map((layout) => layout.layoutId)).toEqual(['brand-copy', 'brand']);
    const searched = await sdk.novu.layouts.list({ query: 'plai' });
    expect(searched.result.layouts.map((layout) => layout.layoutId)).toEqual(['plain']);

    const preview = await sdk.novu.layouts.generatePreview(
      { previewPayload: { subscriber: { firstName: 'Ada' } } },
      'brand',
    );
    expect(preview.result.result.preview?.body).toContain('BRAND-HEADER for Ada');
    expect(preview.result.result.preview?.body).toContain('The email content will appear here.');
    expect(preview.result.previewPayloadExample.subscriber?.firstName).toBe('Ada');
  });

  it('an email step renders inside its layout, the default when it names none, and none with layoutId null', async () => {
    await sdk.novu.layouts.create({ layoutId: 'news', name: 'News' });
    await sdk.novu.layouts.update(
      { name: 'News', controlValues: { email: { body: '<div>NEWS-FRAME</div>\n{{content}}', editorType: 'html' } } },
      'news',
    );
    const named = await createV1Workflow(sdk, 'Layout named', [
      { template: { type: 'email', subject: 'Named', content: '<p>named body</p>', layoutId: 'news' } },
    ]);
    const unnamed = await createV1Workflow(sdk, 'Layout default', [
      { template: { type: 'email', subject: 'Default', content: '<p>default body</p>' } },
    ]);
    const none = await createV1Workflow(sdk, 'Layout none', [
      { template: { type: 'email', subject: 'None', content: '<p>bare body</p>', layoutId: null } },
    ]);
    const to = (id: string) => ({ subscriberId: id, email: `${id}@layouts.test`, firstName: 'Grace' });
    await triggerAndSettle(sdk.t, { name: named, to: to('named') });
    await triggerAndSettle(sdk.t, { name: unnamed, to: to('unnamed') });
    await triggerAndSettle(sdk.t, { name: none, to: to('none') });

    const namedMail = mailTo(smtp, 'named@layouts.test');
    expect(namedMail).toContain('NEWS-FRAME');
    expect(namedMail).toContain('named body');
    expect(namedMail).not.toContain('BRAND-HEADER');

    const defaultMail = mailTo(smtp, 'unnamed@layouts.test');
    expect(defaultMail).toContain('BRAND-HEADER for Grace');
    expect(defaultMail).toContain('default body');
    expect(defaultMail).toContain('BRAND-FOOTER');
    expect(defaultMail.indexOf('BRAND-HEADER')).toBeLessThan(defaultMail.indexOf('default body'));

    const bareMail = mailTo(smtp, 'none@layouts.test');
    expect(bareMail).toContain('bare body');
    expect(bareMail).not.toContain('BRAND-HEADER');
    expect(bareMail).not.toContain('NEWS-FRAME');
  });

  it('usage lists the workflows that use a layout; deleting one in use is a 409 naming them; an unused one is deleted', async () => {
    await sdk.novu.layouts.create({ layoutId: 'receipts', name: 'Receipts' });
    const identifier = await createV1Workflow(sdk, 'Receipt mail', [
      { template: { type: 'email', subject: 'Receipt', content: 'paid', layoutId: 'receipts' } },
    ]);
    const usage = await sdk.novu.layouts.usage('receipts');
    expect(usage.result.workflows).toEqual([{ workflowId: identifier, name: 'Receipt mail' }]);
    const conflict = await expectErrorDto(sdk.novu.layouts.delete('receipts'), 409);
    expect(conflict.message).toContain(identifier);
    // The default layout is used by every email step that names none.
    const defaultUsage = await sdk.novu.layouts.usage('brand');
    expect(defaultUsage.result.workflows.map((workflow) => workflow.name)).toContain('Layout default');
    expect(defaultUsage.result.workflows.map((workflow) => workflow.name)).not.toContain('Layout none');
    await expectErrorDto(sdk.novu.layouts.delete('brand'), 409);

    await sdk.novu.layouts.create({ layoutId: 'unused', name: 'Unused' });
    await sdk.novu.layouts.delete('unused');
    await expectErrorDto(sdk.novu.layouts.retrieve('unused'), 404);
    const [row] = await sdk.t.db
      .select()
      .from(layouts)
      .where(and(eq(layouts.environmentId, sdk.t.environment.id), eq(layouts.layoutId, 'unused')));
    expect(row.deleted).toBe(true);
    // A soft-deleted layout frees its layoutId.
    const again = await sdk.novu.layouts.create({ layoutId: 'unused', name: 'Unused again' });
    expect(again.result.name).toBe('Unused again');
  });

  it('making another layout the default unsets the old one, and email steps that name none follow it', async () => {
    const res = await sdk.t.api('put', '/v2/layouts/news').send({ name: 'News', isDefault: true });
    expect(res.status).toBe(200);
    expect(res.body.isDefault).toBe(true);
    expect((await sdk.novu.layouts.retrieve('brand')).result.isDefault).toBe(false);
    const defaults = await sdk.t.db
      .select()
      .from(layouts)
      .where(and(eq(layouts.environmentId, sdk.t.environment.id), eq(layouts.isDefault, true)));
    expect(defaults.map((row) => row.layoutId)).toEqual(['news']);
    const identifier = await createV1Workflow(sdk, 'Follows default', [
      { template: { type: 'email', subject: 'Hi', content: '<p>follower</p>' } },
    ]);
    await triggerAndSettle(sdk.t, { name: identifier, to: { subscriberId: 'follower', email: 'f@layouts.test' } });
    expect(mailTo(smtp, 'f@layouts.test')).toContain('NEWS-FRAME');
    // Back to brand for the other tests' sake.
    expect((await sdk.t.api('put', '/v2/layouts/brand').send({ name: 'Brand v2', isDefault: true })).status).toBe(200);
  });

  it.each([
    ['a body without a {{content}} slot', '<p>no slot</p>'],
    ['a body that does not parse', '{{ content }} {% if %}'],
    ['a body that would load a file', '{{ content }} {% include "x" %}'],
    ['a body with an unknown filter', '{{ content }} {{ name | nope }}'],
  ])('update refuses %s with a 422 naming the field', async (_name, body) => {
    const error = await expectValidationError(
      sdk.novu.layouts.update({ name: 'Plain', controlValues: { email: { body, editorType: 'html' } } }, 'plain'),
    );
    expect(Object.keys(error.errors)).toEqual(['controlValues.email.body']);
  });

  it('bad inputs are 422: a layoutId with spaces, an empty name, a preview body without a slot; a taken layoutId is 409', async () => {
    await expectValidationError(sdk.novu.layouts.create({ layoutId: 'has space', name: 'X' }));
    await expectValidationError(sdk.novu.layouts.create({ layoutId: 'ok-id', name: '' }));
    await expectValidationError(
      sdk.novu.layouts.generatePreview({ controlValues: { email: { body: '<p>none</p>' } } }, 'plain'),
    );
    await expectErrorDto(sdk.novu.layouts.create({ layoutId: 'plain', name: 'Again' }), 409);
    const res = await sdk.t.api('get', '/v2/layouts?limit=0');
    expect(res.status).toBe(422);
  });

  it("another environment's or organization's layout is a 404 and its list is its own", async () => {
    const production = sdkWithKey(sdk, (await sdk.t.createKeyFor('Production')).apiKey);
    const foreign = sdkWithKey(sdk, (await sdk.t.createForeignKey()).apiKey);
    for (const other of [production, foreign]) {
      await expectErrorDto(other.layouts.retrieve('brand'), 404);
      await expectErrorDto(other.layouts.update({ name: 'Stolen' }, 'brand'), 404);
      await expectErrorDto(other.layouts.delete('plain'), 404);
      await expectErrorDto(other.layouts.usage('brand'), 404);
      expect((await other.layouts.list({})).result.totalCount).toBe(0);
    }
    // Each environment has its own default: the first layout of Production becomes its default.
    const own = await production.layouts.create({ layoutId: 'brand', name: 'Production brand' });
    expect(own.result.isDefault).toBe(true);
    expect((await sdk.novu.layouts.retrieve('brand')).result.name).toBe('Brand v2');
  });

  // Last: it fills the environment with layouts.
  it('an environment holds at most 100 layouts (create and duplicate); a delete makes room again', async () => {
    const existing = (await sdk.novu.layouts.list({ limit: 100 })).result.totalCount;
    const created: string[] = [];
    for (let index = existing; index < 100; index += 1) {
      created.push(
        (await sdk.novu.layouts.create({ layoutId: `bulk-${index}`, name: `Bulk ${index}` })).result.layoutId,
      );
    }
    const refused = await expectValidationError(sdk.novu.layouts.create({ layoutId: 'one-too-many', name: 'X' }));
    expect(Object.keys(refused.errors)).toEqual(['layoutId']);
    await expectValidationError(sdk.novu.layouts.duplicate({ name: 'Copy too many' }, created[0]));
    await sdk.novu.layouts.delete(created[created.length - 1]);
    await sdk.novu.layouts.create({ layoutId: 'one-too-many', name: 'X' });
  });
});
