import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import type { Novu } from '@novu/api';
import { translations, type Environment } from '#dal';
import { detailsOf, jobsOf, messagesOf } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import { TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import { expectUntypedError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';
import { emailThroughSmtp, sdkWithKey, type SmtpReceiver } from './authoring-fixtures.js';

// The SDK declares no error body for the translation operations: every 4xx is a plain SDKError.
const refused = async (call: Promise<unknown>, status = 404) => (await expectUntypedError(call, status)).body;
const invalid = (call: Promise<unknown>) => refused(call, 422);

const LAYOUT_BODY = '<html><body>{{content}}<footer>{{t.footer}}</footer></body></html>';

const GERMAN = {
  subject: 'Willkommen, {{subscriber.firstName}}',
  body: { greeting: 'Hallo {{subscriber.firstName}}' },
  cta: 'Öffnen',
};
const ENGLISH = {
  subject: 'Welcome, {{subscriber.firstName}}',
  body: { greeting: 'Hello {{subscriber.firstName}}', signoff: 'Cheers' },
  cta: 'Open',
};

describe('@novu/api: translations', () => {
  let sdk: SdkApp;
  let production: { apiKey: string; environment: Environment };
  let prod: Novu;
  let foreign: Novu;
  let smtp: SmtpReceiver;

  /** A v1 workflow (the other doors share its store) with translations on, an email and an in-app step. */
  async function createTranslatedWorkflow(name: string, isTranslationEnabled = true): Promise<string> {
    const res = await sdk.t.api('post', '/v1/workflows').send({
      name,
      isTranslationEnabled,
      steps: [
        {
          template: {
            type: 'email',
            subject: '{{t.subject}}',
            content: '<p>{{ t.body.greeting }}</p><p>{{t.body.signoff}}</p><p>{{t.nowhere.key}}</p>',
          },
        },
        {
          template: {
            type: 'in_app',
            content: '{{t.body.greeting}}',
            cta: { action: { buttons: [{ type: 'primary', content: '{{t.cta}}' }] } },
          },
        },
      ],
    });
    expect([res.status, res.body.errors]).toEqual([201, undefined]);
    return res.body.triggers[0].identifier as string;
  }

  /** Triggers through the SDK and waits for every job; the email's and the in-app message's rows and the email job's details. */
  async function deliver(workflowId: string, subscriber: Record<string, unknown>) {
    const transactionId = `tx-${Math.random().toString(36).slice(2)}`;
    const { result } = await sdk.novu.trigger({ workflowId, to: subscriber as never, payload: {}, transactionId });
    expect(result.status).toBe('processed');
    await waitFor(
      async () => {
        const rows = await jobsOf(sdk.t, transactionId);
        return rows.length === 2 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));
      },
      { description: `the jobs of ${transactionId}` },
    );
    const messages = await messagesOf(sdk.t, transactionId);
    const email = messages.find((message) => message.channel === 'email')!;
    const inApp = messages.find((message) => message.channel === 'in_app')!;
    const emailJob = (await jobsOf(sdk.t, transactionId)).find((job) => job.type === 'email')!;
    return { email, inApp, details: (await detailsOf(sdk.t, emailJob.id)).map((row) => row.detail) };
  }

  /** Stores one locale of a workflow's (or layout's) translations through the SDK. */
  const translate = (
    resourceId: string,
    locale: string,
    content: Record<string, unknown>,
    resourceType: 'workflow' | 'layout' = 'workflow',
  ) => sdk.novu.translations.create({ resourceId, resourceType, locale, content });

  const subscriber = (id: string, locale?: string) => ({
    subscriberId: id,
    email: `${id}@l10n.test`,
    firstName: 'Ada',
    ...(locale ? { locale } : {}),
  });

  beforeAll(async () => {
    sdk = await startSdkApp();
    production = await sdk.t.createKeyFor('Production');
    prod = sdkWithKey(sdk, production.apiKey);
    foreign = sdkWithKey(sdk, (await sdk.t.createForeignKey()).apiKey);
    smtp = await emailThroughSmtp(sdk);
    await sdk.novu.layouts.create({ layoutId: 'l10n-frame', name: 'Frame', isTranslationEnabled: true });
    await sdk.novu.layouts.update(
      {
        name: 'Frame',
        isTranslationEnabled: true,
        controlValues: { email: { body: LAYOUT_BODY, editorType: 'html' } },
      },
      'l10n-frame',
    );
  });
  afterAll(async () => {
    await smtp?.close();
    await sdk?.close();
  });

  it('create, retrieve, upload, groups and delete pass the SDK', async () => {
    const workflowId = await createTranslatedWorkflow('Crud');
    const created = await translate(workflowId, 'de_DE', GERMAN);
    expect(created).toMatchObject({
      resourceId: workflowId,
      resourceType: 'workflow',
      locale: 'de_DE',
      content: GERMAN,
    });

    const uploaded = await sdk.novu.translations.upload({
      resourceId: workflowId,
      resourceType: 'workflow',
      files: [
        { fileName: 'en_US.json', content: Buffer.from(JSON.stringify(ENGLISH)) },
        { fileName: 'es_ES.json', content: Buffer.from(JSON.stringify({ cta: 'Abrir' })) },
      ],
    });
    expect(uploaded).toEqual({ totalFiles: 2, successfulUploads: 2, failedUploads: 0, errors: [] });

    const english = await sdk.novu.translations.retrieve({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'en_US',
    });
    expect(english.content).toEqual(ENGLISH);

    const group = await sdk.novu.translations.groups.retrieve('workflow', workflowId);
    expect(group).toMatchObject({ resourceId: workflowId, resourceName: 'Crud', locales: ['de_DE', 'en_US', 'es_ES'] });
    expect(Date.parse(group.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    await sdk.novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' });
    await refused(
      sdk.novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' }),
      404,
    );
    await refused(
      sdk.novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'es_ES' }),
      404,
    );
    // Deleting the workflow deletes its translations: a new workflow of the same id starts without them.
    await sdk.novu.workflows.delete(workflowId);
    expect(
      await sdk.t.db
        .select()
        .from(translations)
        .where(and(eq(translations.environmentId, sdk.t.environment.id), eq(translations.resourceId, workflowId))),
    ).toEqual([]);
    await createTranslatedWorkflow('Crud');
    await refused(sdk.novu.translations.groups.retrieve('workflow', workflowId));
    await translate(workflowId, 'de_DE', GERMAN);
    await sdk.novu.translations.groups.delete('workflow', workflowId);
    await refused(sdk.novu.translations.groups.retrieve('workflow', workflowId), 404);
    const left = await sdk.t.db
      .select()
      .from(translations)
      .where(and(eq(translations.environmentId, sdk.t.environment.id), eq(translations.resourceId, workflowId)));
    expect(left).toEqual([]);
  });

  it('each subscriber reads their locale, falling back to the default; subject, layout and action labels are translated', async () => {
    const workflowId = await createTranslatedWorkflow('Greeting');
    await translate(workflowId, 'de_DE', GERMAN);
    await translate(workflowId, 'en_US', ENGLISH);
    await translate('l10n-frame', 'de_DE', { footer: 'Fußzeile' }, 'layout');
    await translate('l10n-frame', 'en_US', { footer: 'Footer' }, 'layout');

    const german = await deliver(workflowId, subscriber('de-reader', 'de_DE'));
    expect(german.email.subject).toBe('Willkommen, Ada');
    expect(german.email.content).toContain('<p>Hallo Ada</p>');
    // A key the chosen locale lacks takes the default locale's value.
    expect(german.email.content).toContain('<p>Cheers</p>');
    expect(german.email.content).toContain('<footer>Fußzeile</footer>');
    expect(german.inApp.content).toBe('Hallo Ada');
    expect(JSON.stringify(german.inApp.cta)).toContain('Öffnen');
    // A key in no locale renders as its key and is reported, never silently.
    expect(german.email.content).toContain('<p>nowhere.key</p>');
    expect(german.email.content).not.toContain('{{');
    expect(german.details).toContainEqual(expect.stringContaining('nowhere.key'));
    expect(german.details.find((detail) => detail.includes('nowhere.key'))).toContain('de_DE');

    for (const reader of [subscriber('fr-reader', 'fr_FR'), subscriber('no-locale-reader')]) {
      const delivered = await deliver(workflowId, reader);
      expect(delivered.email.subject).toBe('Welcome, Ada');
      expect(delivered.email.content).toContain('<p>Hello Ada</p>');
      expect(delivered.email.content).toContain('<footer>Footer</footer>');
      expect(delivered.inApp.content).toBe('Hello Ada');
    }

    // Deleting German: the German reader falls back to the default at once (the cache is invalidated).
    await sdk.novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'de_DE' });
    const fallenBack = await deliver(workflowId, subscriber('de-reader', 'de_DE'));
    expect(fallenBack.email.subject).toBe('Welcome, Ada');
    expect(fallenBack.email.content).toContain('<footer>Fußzeile</footer>');
  });

  it("the environment's default locale is settable; a workflow with translations off reports its keys", async () => {
    const workflowId = await createTranslatedWorkflow('Default locale');
    await translate(workflowId, 'de_DE', GERMAN);
    await translate(workflowId, 'en_US', ENGLISH);
    const set = await sdk.t.api('put', `/v1/environments/${sdk.t.environment.id}`).send({ defaultLocale: 'de_DE' });
    expect([set.status, set.body.defaultLocale]).toEqual([200, 'de_DE']);
    const bad = await sdk.t.api('put', `/v1/environments/${sdk.t.environment.id}`).send({ defaultLocale: 'german' });
    expect(bad.status).toBe(422);
    try {
      const delivered = await deliver(workflowId, subscriber('plain-reader'));
      expect(delivered.email.subject).toBe('Willkommen, Ada');
    } finally {
      await sdk.t.api('put', `/v1/environments/${sdk.t.environment.id}`).send({ defaultLocale: 'en_US' });
    }

    const off = await createTranslatedWorkflow('Translations off', false);
    await translate(off, 'en_US', ENGLISH);
    const untranslated = await deliver(off, subscriber('off-reader', 'en_US'));
    expect(untranslated.email.subject).toBe('subject');
    const reported = untranslated.details.find((detail) => detail.startsWith('Translations are off'));
    expect(reported).toContain('subject');
    expect(reported).toContain('body.greeting');
  });

  it('generatePreview renders in the locale of the preview subscriber and reports missing keys', async () => {
    const { result: workflow } = await sdk.novu.workflows.create({
      name: 'Preview',
      workflowId: 'l10n-preview',
      isTranslationEnabled: true,
      steps: [
        {
          name: 'Email',
          type: 'email',
          controlValues: { subject: '{{t.subject}}', body: '<p>{{t.body.greeting}} {{t.missing}}</p>', layoutId: null },
        },
      ],
    });
    expect(workflow.isTranslationEnabled).toBe(true);
    const { result: listed } = await sdk.novu.workflows.list({ limit: 100 });
    expect(listed.workflows.find((item) => item.workflowId === 'l10n-preview')?.isTranslationEnabled).toBe(true);
    await translate('l10n-preview', 'de_DE', GERMAN);
    const { result } = await sdk.novu.workflows.steps.generatePreview({
      workflowId: 'l10n-preview',
      stepId: 'email',
      generatePreviewRequestDto: { previewPayload: { subscriber: { firstName: 'Ada', locale: 'de_DE' } } },
    });
    expect(result.result).toMatchObject({ type: 'email', preview: { subject: 'Willkommen, Ada' } });
    const raw = await sdk.t
      .api('post', '/v2/workflows/l10n-preview/step/email/preview')
      .send({ previewPayload: { subscriber: { locale: 'de_DE' } } });
    expect(raw.status).toBe(201);
    expect(raw.body.missingTranslations).toEqual({ keys: ['missing'], locale: 'de_DE', defaultLocale: 'en_US' });

    const layoutPreview = await sdk.novu.layouts.generatePreview(
      { previewPayload: { subscriber: { locale: 'de_DE' } } },
      'l10n-frame',
    );
    expect(layoutPreview.result.result.preview?.body).toContain('<footer>Fußzeile</footer>');
  });

  it('master JSON: export, edit, import and upload round-trip', async () => {
    const workflowId = await createTranslatedWorkflow('Master');
    await translate(workflowId, 'de_DE', GERMAN);
    const exported = await sdk.novu.translations.master.retrieve('de_DE');
    expect(exported.workflows[workflowId]).toEqual(GERMAN);
    expect(exported.layouts['l10n-frame']).toEqual({ footer: 'Fußzeile' });

    const edited = { ...exported, workflows: { [workflowId]: { ...GERMAN, cta: 'Jetzt öffnen' } } };
    const imported = await sdk.novu.translations.master.import({ locale: 'de_DE', masterJson: edited });
    expect(imported).toMatchObject({ success: true, successful: [workflowId, 'l10n-frame'] });
    const again = await sdk.novu.translations.master.retrieve('de_DE');
    expect(again.workflows[workflowId]).toEqual({ ...GERMAN, cta: 'Jetzt öffnen' });

    const uploaded = await sdk.novu.translations.master.upload({
      file: {
        fileName: 'it_IT.json',
        content: Buffer.from(JSON.stringify({ workflows: { [workflowId]: { cta: 'Apri' } } })),
      },
    });
    expect(uploaded).toMatchObject({ success: true, successful: [workflowId] });
    const italian = await sdk.novu.translations.retrieve({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'it_IT',
    });
    expect(italian.content).toEqual({ cta: 'Apri' });
    // Without a locale, the default locale is exported.
    const defaults = await sdk.novu.translations.master.retrieve();
    expect(defaults.layouts['l10n-frame']).toEqual({ footer: 'Footer' });
  });

  it('bad input is a 4xx with the reason, and a rejected upload stores nothing', async () => {
    const workflowId = await createTranslatedWorkflow('Bad input');
    const create = (locale: string, content: Record<string, unknown>, resourceId = workflowId) =>
      translate(resourceId, locale, content);
    for (const locale of ['de-DE', 'german', 'DE_de', 'de_DE_x']) {
      expect(await invalid(create(locale, { a: 'b' }))).toContain('language_REGION');
    }
    for (const content of [
      { a: 1 },
      { a: ['x'] },
      { a: { b: null } },
      { 'bad key': 'x' },
      { a: { b: { c: { d: { e: { f: 'deep' } } } } } },
    ]) {
      await invalid(create('de_DE', content));
    }
    // Values are templates: one that does not parse is refused when saved.
    expect(await invalid(create('de_DE', { a: 'Hallo {{ subscriber.firstName | nosuchfilter }}' }))).toContain(
      'nosuchfilter',
    );
    const tooLong = await invalid(create('de_DE', { a: 'x'.repeat(64 * 1024 + 1) }));
    expect(tooLong).toContain('64 KB');
    await create('de_DE', { a: 'x'.repeat(64 * 1024) });
    await refused(create('de_DE', { a: 'b' }, 'no-such-workflow'), 404);

    const upload = (files: { fileName: string; content: Buffer }[]) =>
      sdk.novu.translations.upload({ resourceId: workflowId, resourceType: 'workflow', files });
    const good = { fileName: 'fr_FR.json', content: Buffer.from('{"a":"bonjour"}') };
    const brokenJson = await invalid(upload([good, { fileName: 'it_IT.json', content: Buffer.from('{"a":') }]));
    expect(brokenJson).toContain('it_IT.json');
    const badName = await invalid(upload([good, { fileName: 'italian.json', content: Buffer.from('{}') }]));
    expect(badName).toContain('italian.json');
    const huge = Buffer.from(JSON.stringify({ a: 'x'.repeat(60_000), b: 'y'.repeat(60_000) }).repeat(1));
    const bigFile = { fileName: 'it_IT.json', content: Buffer.concat([huge, Buffer.alloc(1024 * 1024, ' ')]) };
    const tooBig = await invalid(upload([good, bigFile]));
    expect(tooBig).toContain('1024 KB');
    await refused(
      sdk.novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'fr_FR' }),
      404,
    );

    // A master JSON naming a resource the environment lacks is refused whole.
    const refusedWhole = await invalid(
      sdk.novu.translations.master.import({
        locale: 'fr_FR',
        masterJson: { workflows: { [workflowId]: { a: 'oui' }, 'no-such-workflow': { a: 'non' } } },
      }),
    );
    expect(refusedWhole).toContain('no-such-workflow');
    const notJson = await invalid(
      sdk.novu.translations.master.upload({ file: { fileName: 'fr_FR.json', content: Buffer.from('not json') } }),
    );
    expect(notJson).toContain('not valid JSON');
    await refused(
      sdk.novu.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'fr_FR' }),
      404,
    );
  });

  it("another environment's key can neither read nor change them", async () => {
    const workflowId = await createTranslatedWorkflow('Isolated');
    await translate(workflowId, 'de_DE', GERMAN);
    for (const other of [prod, foreign]) {
      await refused(
        other.translations.retrieve({ resourceType: 'workflow', resourceId: workflowId, locale: 'de_DE' }),
        404,
      );
      await refused(other.translations.groups.retrieve('workflow', workflowId), 404);
      await refused(
        other.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'de_DE' }),
        404,
      );
      await refused(other.translations.groups.delete('workflow', workflowId), 404);
      await refused(
        other.translations.create({
          resourceId: workflowId,
          resourceType: 'workflow',
          locale: 'de_DE',
          content: { subject: 'x' },
        }),
        404,
      );
      await invalid(
        other.translations.master.import({
          locale: 'de_DE',
          masterJson: { workflows: { [workflowId]: { subject: 'x' } } },
        }),
      );
      const master = await other.translations.master.retrieve('de_DE');
      expect(master.workflows[workflowId]).toBeUndefined();
    }
    const result = await sdk.novu.translations.retrieve({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'de_DE',
    });
    expect(result.content).toEqual(GERMAN);
  });

  it('diff and publish carry translations to the target environment', async () => {
    const workflowId = await createTranslatedWorkflow('Published');
    await translate(workflowId, 'de_DE', GERMAN);
    await sdk.novu.environments.publish({ sourceEnvironmentId: sdk.t.environment.id }, production.environment.id);
    const inProduction = await prod.translations.retrieve({
      resourceType: 'workflow',
      resourceId: workflowId,
      locale: 'de_DE',
    });
    expect(inProduction.content).toEqual(GERMAN);
    const layoutInProduction = await prod.translations.retrieve({
      resourceType: 'layout',
      resourceId: 'l10n-frame',
      locale: 'de_DE',
    });
    expect(layoutInProduction.content).toEqual({ footer: 'Fußzeile' });

    // A change of translations alone is a change of the workflow; publishing it replaces the target's locales.
    await sdk.novu.translations.delete({ resourceType: 'workflow', resourceId: workflowId, locale: 'de_DE' });
    await translate(workflowId, 'en_US', ENGLISH);
    const { result: diff } = await sdk.novu.environments.diff({}, production.environment.id);
    const changed = diff.resources.find((resource) => resource.sourceResource?.id === workflowId);
    expect(changed?.changes[0]).toMatchObject({ action: 'modified' });
    await sdk.novu.environments.publish({ sourceEnvironmentId: sdk.t.environment.id }, production.environment.id);
    const group = await prod.translations.groups.retrieve('workflow', workflowId);
    expect(group.locales).toEqual(['en_US']);
  });
});
