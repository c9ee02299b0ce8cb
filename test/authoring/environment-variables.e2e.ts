import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ValidationErrorDto } from '@novu/api/models/errors/index.js';
import { eq } from 'drizzle-orm';
import { environmentVariables } from '#dal';
import { triggerAndSettle } from '../support/engine-fixtures.js';
import { startProviderReceiver } from '../support/receivers.js';
import { expectErrorDto, expectUntypedError, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';
import { createV1Workflow, emailThroughSmtp, mailTo, sdkWithKey, type SmtpReceiver } from './authoring-fixtures.js';

const SECRET = 'sk-live-7f3a9c1e5b';
const MASK = '••••••••';

describe('@novu/api: environment variables', () => {
  let sdk: SdkApp;
  let smtp: SmtpReceiver;
  let developmentId: string;
  beforeAll(async () => {
    sdk = await startSdkApp();
    smtp = await emailThroughSmtp(sdk);
    developmentId = sdk.t.environment.id;
  });
  afterAll(async () => {
    await smtp?.close();
    await sdk?.close();
  });

  const storedRow = async (key: string) =>
    (await sdk.t.db.select().from(environmentVariables).where(eq(environmentVariables.key, key)))[0];

  it('a secret variable is encrypted at rest and masked in every response, and renders in a delivered email', async () => {
    const created = await sdk.novu.environmentVariables.create({
      key: 'API_TOKEN',
      isSecret: true,
      values: [{ environmentId: developmentId, value: SECRET }],
    });
    expect(created.result).toMatchObject({ key: 'API_TOKEN', type: 'string', isSecret: true });
    expect(created.result.values).toEqual([{ environmentId: developmentId, value: MASK }]);

    const row = await storedRow('API_TOKEN');
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row.values[0].value).toMatch(/^v1:/);

    const responses = [
      created.result,
      (await sdk.novu.environmentVariables.retrieve('API_TOKEN')).result,
      (await sdk.novu.environmentVariables.list()).result,
      (await sdk.novu.environmentVariables.update({ values: [] }, 'API_TOKEN')).result,
    ];
    for (const response of responses) expect(JSON.stringify(response)).not.toContain(SECRET);

    const identifier = await createV1Workflow(sdk, 'Token mail', [
      { template: { type: 'email', subject: 'Key {{ env.API_TOKEN }}', content: '<p>token {{ env.API_TOKEN }}</p>' } },
    ]);
    await triggerAndSettle(sdk.t, { name: identifier, to: { subscriberId: 'tok', email: 'tok@vars.test' } });
    const mail = mailTo(smtp, 'tok@vars.test');
    expect(mail).toContain(`Subject: Key ${SECRET}`);
    expect(mail).toContain(`token ${SECRET}`);
  });

  it('a layout reads env too; its preview shows a secret masked', async () => {
    await sdk.novu.environmentVariables.create({
      key: 'BRAND_NAME',
      values: [{ environmentId: developmentId, value: 'Acme' }],
    });
    await sdk.novu.layouts.create({ layoutId: 'env-layout', name: 'Env layout' });
    await sdk.novu.layouts.update(
      {
        name: 'Env layout',
        controlValues: {
          email: { body: '<h1>{{ env.BRAND_NAME }}</h1>\n{{content}}\n<i>{{ env.API_TOKEN }}</i>', editorType: 'html' },
        },
      },
      'env-layout',
    );
    const preview = await sdk.novu.layouts.generatePreview({}, 'env-layout');
    expect(preview.result.result.preview?.body).toContain('<h1>Acme</h1>');
    expect(JSON.stringify(preview.result)).not.toContain(SECRET);
    expect(preview.result.result.preview?.body).toContain(MASK);

    const identifier = await createV1Workflow(sdk, 'Branded', [
      { template: { type: 'email', subject: 'Hi', content: '<p>branded body</p>' } },
    ]);
    await triggerAndSettle(sdk.t, { name: identifier, to: { subscriberId: 'br', email: 'br@vars.test' } });
    const mail = mailTo(smtp, 'br@vars.test');
    expect(mail).toContain('<h1>Acme</h1>');
    expect(mail).toContain(`<i>${SECRET}</i>`);
  });

  it('an http_request step reads env in its url, headers and body', async () => {
    const receiver = await startProviderReceiver();
    try {
      await sdk.novu.environmentVariables.create({
        key: 'HOOK_PATH',
        values: [{ environmentId: developmentId, value: 'hooks/v1' }],
      });
      const res = await sdk.t.api('post', '/v1/workflows').send({
        name: 'Env hook',
        steps: [
          {
            name: 'hook',
            template: { type: 'http_request' },
            metadata: {
              url: `${receiver.url}/{{ env.HOOK_PATH }}`,
              method: 'POST',
              headers: [{ key: 'Authorization', value: 'Bearer {{ env.API_TOKEN }}' }],
              body: [{ key: 'token', value: '{{ env.API_TOKEN }}' }],
            },
          },
        ],
      });
      expect(res.status).toBe(201);
      await triggerAndSettle(sdk.t, { name: res.body.triggers[0].identifier as string, to: 'hook-subscriber' });
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request.path).toBe('/hooks/v1');
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(request.json).toEqual({ token: SECRET });
    } finally {
      await receiver.close();
    }
  });

  it('each environment reads its own value', async () => {
    const production = await sdk.t.createKeyFor('Production');
    await sdk.novu.environmentVariables.create({
      key: 'GREETING',
      values: [
        { environmentId: developmentId, value: 'hello-dev' },
        { environmentId: production.environment.id, value: 'hello-prod' },
      ],
    });
    const prod = sdkWithKey(sdk, production.apiKey);
    // The variable belongs to the organization: Production sees the same key.
    expect((await prod.environmentVariables.retrieve('GREETING')).result.values).toHaveLength(2);
    await prod.layouts.create({ layoutId: 'greet', name: 'Greet' });
    await prod.layouts.update(
      { name: 'Greet', controlValues: { email: { body: '{{ env.GREETING }} {{content}}', editorType: 'html' } } },
      'greet',
    );
    expect((await prod.layouts.generatePreview({}, 'greet')).result.result.preview?.body).toContain('hello-prod');
    await sdk.novu.layouts.update(
      { name: 'Env layout', controlValues: { email: { body: '{{ env.GREETING }} {{content}}', editorType: 'html' } } },
      'env-layout',
    );
    expect((await sdk.novu.layouts.generatePreview({}, 'env-layout')).result.result.preview?.body).toContain(
      'hello-dev',
    );
  });

  it('update renames, changes values and turns a plain variable secret (its stored values become encrypted)', async () => {
    await sdk.novu.environmentVariables.create({
      key: 'WEBHOOK_SIGNING',
      values: [{ environmentId: developmentId, value: 'plain-signing-value' }],
    });
    expect((await storedRow('WEBHOOK_SIGNING')).values[0].value).toBe('plain-signing-value');
    const updated = await sdk.novu.environmentVariables.update(
      { key: 'SIGNING_KEY', isSecret: true },
      'WEBHOOK_SIGNING',
    );
    expect(updated.result).toMatchObject({ key: 'SIGNING_KEY', isSecret: true });
    expect(updated.result.values).toEqual([{ environmentId: developmentId, value: MASK }]);
    const row = await storedRow('SIGNING_KEY');
    expect(JSON.stringify(row.values)).not.toContain('plain-signing-value');
    await expectUntypedError(sdk.novu.environmentVariables.retrieve('WEBHOOK_SIGNING'), 404);
    // Renaming onto a taken key is a conflict.
    await expectErrorDto(sdk.novu.environmentVariables.update({ key: 'API_TOKEN' }, 'SIGNING_KEY'), 409);
  });

  it('usage lists the workflows that read the key, whole keys only', async () => {
    await sdk.novu.environmentVariables.create({ key: 'REGION' });
    await sdk.novu.environmentVariables.create({ key: 'REGION_CODE' });
    const identifier = await createV1Workflow(sdk, 'Regional', [
      { template: { type: 'in_app', content: 'from {{env.REGION_CODE | upcase}}' } },
    ]);
    const code = await sdk.novu.environmentVariables.usage('REGION_CODE');
    expect(code.result.workflows).toEqual([{ workflowId: identifier, name: 'Regional' }]);
    expect((await sdk.novu.environmentVariables.usage('REGION')).result.workflows).toEqual([]);
    const token = await sdk.novu.environmentVariables.usage('API_TOKEN');
    expect(token.result.workflows.map((workflow) => workflow.name)).toEqual(['Env hook', 'Token mail']);
  });

  it('delete removes the variable and its row; a second delete is a 404', async () => {
    await sdk.novu.environmentVariables.create({ key: 'TEMPORARY' });
    await sdk.novu.environmentVariables.delete('TEMPORARY');
    await expectUntypedError(sdk.novu.environmentVariables.retrieve('TEMPORARY'), 404);
    await expectUntypedError(sdk.novu.environmentVariables.delete('TEMPORARY'), 404);
    expect(await storedRow('TEMPORARY')).toBeUndefined();
  });

  it('bad inputs are 422 naming the field; a taken key is 409', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'lower_case' }, 'key'],
      [{ key: '1LEADING_DIGIT' }, 'key'],
      [{ key: 'HAS-DASH' }, 'key'],
      [{ key: 'BIG', values: [{ environmentId: developmentId, value: 'x'.repeat(64 * 1024 + 1) }] }, 'values[0].value'],
      [
        { key: 'UNKNOWN_ENV', values: [{ environmentId: '0190a000-0000-7000-8000-000000000000', value: 'x' }] },
        'values[0]._environmentId',
      ],
      [{ key: 'NOT_AN_ID', values: [{ environmentId: 'nope', value: 'x' }] }, 'values[0]._environmentId'],
      [
        {
          key: 'TWICE',
          values: [
            { environmentId: developmentId, value: 'a' },
            { environmentId: developmentId, value: 'b' },
          ],
        },
        'values[1]._environmentId',
      ],
    ];
    for (const [body, field] of cases) {
      const error = await expectValidationError(sdk.novu.environmentVariables.create(body as { key: string }));
      expect(Object.keys(error.errors)).toContain(field);
    }
    // A value of exactly 64 KB is accepted.
    await sdk.novu.environmentVariables.create({
      key: 'EXACTLY_64K',
      values: [{ environmentId: developmentId, value: 'x'.repeat(64 * 1024) }],
    });
    await expectValidationError(sdk.novu.environmentVariables.update({ key: 'bad key' }, 'EXACTLY_64K'));
    await expectUntypedError(sdk.novu.environmentVariables.create({ key: 'API_TOKEN' }), 409);
  });

  it("another organization's key is a 404, and its environments cannot hold values of ours", async () => {
    const foreignKey = await sdk.t.createForeignKey();
    const foreign = sdkWithKey(sdk, foreignKey.apiKey);
    await expectUntypedError(foreign.environmentVariables.retrieve('API_TOKEN'), 404);
    await expectUntypedError(foreign.environmentVariables.update({ isSecret: false }, 'API_TOKEN'), 404);
    await expectUntypedError(foreign.environmentVariables.delete('API_TOKEN'), 404);
    await expectUntypedError(foreign.environmentVariables.usage('API_TOKEN'), 404);
    expect((await foreign.environmentVariables.list()).result).toEqual([]);
    // Its own variable with the same key is fine, and ours cannot name its environment.
    await foreign.environmentVariables.create({ key: 'API_TOKEN' });
    await expectValidationError(
      sdk.novu.environmentVariables.update(
        { values: [{ environmentId: foreignKey.environment.id, value: 'x' }] },
        'API_TOKEN',
      ),
    );
    expect((await sdk.novu.environmentVariables.retrieve('API_TOKEN')).result.isSecret).toBe(true);
  });

  it("bounds the organization's stored values at 1 MiB in all, not only each value", async () => {
    const value = 'v'.repeat(60 * 1024);
    const created: string[] = [];
    let refusal: unknown;
    while (refusal === undefined && created.length < 25) {
      const key = `BULK_${created.length}`;
      refusal = await sdk.novu.environmentVariables
        .create({ key, values: [{ environmentId: developmentId, value }] })
        .then(
          () => void created.push(key),
          (error: unknown) => error,
        );
    }
    // Refused once the total would pass 1 MiB: after at least 10 and at most 17 values of 60 KB.
    expect(refusal).toBeInstanceOf(ValidationErrorDto);
    expect(Object.keys((refusal as ValidationErrorDto).errors)).toEqual(['values']);
    expect(created.length).toBeGreaterThanOrEqual(10);
    expect(created.length).toBeLessThanOrEqual(17);
    await expectUntypedError(sdk.novu.environmentVariables.retrieve(`BULK_${created.length}`), 404);
    for (const key of created) await sdk.novu.environmentVariables.delete(key);
  });
});
