import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import type { CreateWorkflowDto } from '@novu/api/models/components/index.js';
import { and, count, eq } from 'drizzle-orm';
import { jobs, messages, WorkflowRepository } from '#dal';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';
import { startProviderReceiver, type ProviderReceiver } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';

/** /v2/workflows through Novu's own SDK: every answer passes the SDK's response validation. */
describe('@novu/api: workflows v2', () => {
  let sdk: SdkApp;
  let serverURL: string;
  let receiver: ProviderReceiver;

  const welcome = (workflowId: string, extra: Partial<CreateWorkflowDto> = {}): CreateWorkflowDto => ({
    name: `Welcome ${workflowId}`,
    workflowId,
    active: true,
    tags: ['onboarding'],
    steps: [
      {
        name: 'In-app',
        type: 'in_app',
        controlValues: {
          subject: 'Hi {{subscriber.firstName}}',
          body: 'Hello {{subscriber.firstName}}, order {{payload.orderId}}',
          primaryAction: { label: 'Open', redirect: { url: '/orders/{{payload.orderId}}' } },
        },
      },
      {
        name: 'Email',
        stepId: 'welcome-email',
        type: 'email',
        controlValues: { subject: 'Order {{payload.orderId}}', body: '<p>Hi {{subscriber.firstName}}</p>' },
      },
    ],
    ...extra,
  });

  /** Triggers and waits for the subscriber's in-app message of that transaction; its content. */
  async function deliverInApp(novu: Novu, workflowId: string, subscriberId: string, payload = {}): Promise<string> {
    const transactionId = `tx-${Math.random().toString(36).slice(2)}`;
    const { result } = await novu.trigger({
      workflowId,
      to: { subscriberId, firstName: 'Ada' },
      payload,
      transactionId,
    });
    expect(result.status).toBe('processed');
    let content: unknown;
    await waitFor(
      async () => {
        const page = await novu.messages.retrieve({ subscriberId, transactionId: [transactionId], channel: 'in_app' });
        content = page.result.data[0]?.content;
        return content !== undefined;
      },
      { description: `the in-app message of ${transactionId}` },
    );
    return String(content);
  }

  const rowCount = async (table: typeof messages | typeof jobs) =>
    (await sdk.t.db.select({ n: count() }).from(table).where(eq(table.environmentId, sdk.t.environment.id)))[0].n;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { port } = sdk.t.app.getHttpServer().address() as { port: number };
    serverURL = `http://127.0.0.1:${port}`;
    receiver = await startProviderReceiver();
    const integration = await sdk.t.api('post', '/v1/integrations').send({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'v2-sendgrid',
      active: true,
      credentials: { apiKey: 'SG.v2', from: 'no-reply@acme.test', baseUrl: `${receiver.url}/sendgrid` },
    });
    expect(integration.status).toBe(201);
  });
  afterAll(async () => {
    await receiver?.close();
    await sdk?.close();
  });

  it('creates, reads, lists, replaces and deletes a workflow', async () => {
    const { result: created } = await sdk.novu.workflows.create(welcome('v2-crud'));
    expect(created).toMatchObject({
      workflowId: 'v2-crud',
      origin: 'novu-cloud',
      status: 'ACTIVE',
      active: true,
      tags: ['onboarding'],
    });
    expect(created.steps.map((step) => [step.stepId, step.type])).toEqual([
      ['in-app', 'in_app'],
      ['welcome-email', 'email'],
    ]);
    expect(created.steps[0].controlValues).toMatchObject({
      body: 'Hello {{subscriber.firstName}}, order {{payload.orderId}}',
    });

    // The one store: the row the v1 engine runs, with the template derived from the controls.
    const row = await sdk.t.app.get(WorkflowRepository).findById(sdk.t.environment.id, created.id);
    expect(row).toMatchObject({ origin: 'novu-cloud', identifier: 'v2-crud' });
    expect(row!.steps[0].template).toMatchObject({
      type: 'in_app',
      content: 'Hello {{subscriber.firstName}}, order {{payload.orderId}}',
    });

    const byWorkflowId = await sdk.novu.workflows.get('v2-crud');
    const byId = await sdk.novu.workflows.get(created.id);
    expect(byId.result).toEqual(byWorkflowId.result);
    const { result: step } = await sdk.novu.workflows.steps.retrieve('v2-crud', 'welcome-email');
    expect(step).toMatchObject({ stepId: 'welcome-email', type: 'email', workflowId: 'v2-crud' });
    expect(step.controlValues).toMatchObject({ subject: 'Order {{payload.orderId}}' });

    const { result: replaced } = await sdk.novu.workflows.update(
      {
        name: 'Welcome renamed',
        active: true,
        preferences: { workflow: { all: { enabled: true, readOnly: true }, channels: { email: { enabled: false } } } },
        steps: [
          { name: 'Email', stepId: 'welcome-email', type: 'email', controlValues: { subject: 'New', body: 'x' } },
        ],
      },
      'v2-crud',
    );
    expect(replaced.name).toBe('Welcome renamed');
    expect(replaced.steps).toHaveLength(1);
    expect(replaced.steps[0].id).toBe(created.steps[1].id);
    expect(replaced.preferences.default).toMatchObject({
      all: { enabled: true, readOnly: true },
      channels: { email: { enabled: false }, in_app: { enabled: true } },
    });
    const stored = await sdk.t.app.get(WorkflowRepository).findById(sdk.t.environment.id, created.id);
    expect(stored).toMatchObject({ critical: true, preferenceSettings: { email: false, in_app: true } });

    await sdk.novu.workflows.delete('v2-crud');
    await expectErrorDto(sdk.novu.workflows.get('v2-crud'), 404);
  });

  it('round-trips every step type and previews each', async () => {
    const steps: CreateWorkflowDto['steps'] = [
      {
        name: 'Digest',
        type: 'digest',
        controlValues: { amount: 5, unit: 'minutes', lookBackWindow: { amount: 1, unit: 'minutes' } },
      },
      { name: 'Delay', type: 'delay', controlValues: { amount: 1, unit: 'seconds' } },
      { name: 'Throttle', type: 'throttle', controlValues: { amount: 1, unit: 'hours', threshold: 3 } },
      { name: 'Sms', type: 'sms', controlValues: { body: 'Code {{payload.code}}' } },
      { name: 'Chat', type: 'chat', controlValues: { body: 'Chat {{payload.code}}' } },
      { name: 'Push', type: 'push', controlValues: { subject: 'Push', body: 'Code {{payload.code}}' } },
      {
        name: 'Call',
        type: 'http_request',
        controlValues: {
          url: 'https://hooks.example.com/{{payload.code}}',
          method: 'POST',
          headers: [{ key: 'X-Code', value: '{{payload.code}}' }],
          body: [{ key: 'code', value: '{{payload.code}}' }],
        },
      },
      { name: 'Email', type: 'email', controlValues: { subject: 'S', body: 'B', editorType: 'html', layoutId: null } },
    ];
    const { result: created } = await sdk.novu.workflows.create({ name: 'All steps', workflowId: 'v2-all', steps });
    const { result: read } = await sdk.novu.workflows.get('v2-all');
    // The SDK fills its own defaults in (a delay's type: regular): what was written is all there.
    expect(read.steps.map((step) => step.type)).toEqual(steps.map((step) => step.type));
    read.steps.forEach((step, index) => expect(step.controlValues).toMatchObject(steps[index].controlValues!));
    expect(read).toEqual(created);

    const preview = async (stepId: string) =>
      (
        await sdk.novu.workflows.steps.generatePreview({
          workflowId: 'v2-all',
          stepId,
          generatePreviewRequestDto: { previewPayload: { payload: { code: 'Z9' } } },
        })
      ).result.result;
    expect(await preview('sms')).toEqual({ type: 'sms', preview: { body: 'Code Z9' } });
    expect(await preview('chat')).toEqual({ type: 'chat', preview: { body: 'Chat Z9' } });
    expect(await preview('push')).toEqual({ type: 'push', preview: { subject: 'Push', body: 'Code Z9' } });
    expect(await preview('call')).toMatchObject({
      type: 'http_request',
      preview: { url: 'https://hooks.example.com/Z9', headers: [{ key: 'X-Code', value: 'Z9' }] },
    });
    expect(await preview('delay')).toEqual({ type: 'delay', preview: { type: 'regular', amount: 1, unit: 'seconds' } });
  });

  it('lists with query, tags, status, paging and ordering as the SDK sends them', async () => {
    await sdk.novu.workflows.create(welcome('v2-list-a', { name: 'List A', tags: ['list', 'a'] }));
    await sdk.novu.workflows.create(welcome('v2-list-b', { name: 'List B', tags: ['list'], active: false }));
    await sdk.novu.workflows.create(welcome('v2-list-c', { name: 'List C', tags: ['other'] }));

    const { result: tagged } = await sdk.novu.workflows.list({
      tags: ['list'],
      orderBy: 'name',
      orderDirection: 'ASC',
    });
    expect(tagged.workflows.map((item) => item.workflowId)).toEqual(['v2-list-a', 'v2-list-b']);
    expect(tagged.totalCount).toBe(2);
    expect(tagged.workflows[0]).toMatchObject({ origin: 'novu-cloud', stepTypeOverviews: ['in_app', 'email'] });

    const { result: inactive } = await sdk.novu.workflows.list({ query: 'list', status: ['INACTIVE'] });
    expect(inactive.workflows.map((item) => item.workflowId)).toEqual(['v2-list-b']);

    const { result: page } = await sdk.novu.workflows.list({
      query: 'List',
      limit: 1,
      offset: 1,
      orderBy: 'name',
      orderDirection: 'DESC',
    });
    expect(page).toMatchObject({ totalCount: 3, workflows: [{ workflowId: 'v2-list-b' }] });

    await expectValidationError(sdk.novu.workflows.list({ limit: 0 }));
    await expectValidationError(sdk.novu.workflows.list({ limit: 101 }));
    await expectValidationError(sdk.novu.workflows.list({ offset: -1 }));
  });

  it('runs a v2 workflow through /v1/events/trigger like a v1 one; patch active=false stops it', async () => {
    await sdk.novu.workflows.create(welcome('v2-trigger'));
    expect(await deliverInApp(sdk.novu, 'v2-trigger', 'v2-sub', { orderId: 42 })).toBe('Hello Ada, order 42');

    const { result: paused } = await sdk.novu.workflows.patch({ active: false }, 'v2-trigger');
    expect(paused).toMatchObject({ active: false, status: 'INACTIVE' });
    const { result } = await sdk.novu.trigger({ workflowId: 'v2-trigger', to: 'v2-sub', payload: {} });
    expect(result.status).toBe('trigger_not_active');

    await sdk.novu.workflows.patch({ active: true }, 'v2-trigger');
    expect(await deliverInApp(sdk.novu, 'v2-trigger', 'v2-sub', { orderId: 7 })).toBe('Hello Ada, order 7');
  });

  it('skips a step whose skip condition (JSON Logic) holds', async () => {
    await sdk.novu.workflows.create({
      name: 'Skippable',
      workflowId: 'v2-skip',
      active: true,
      steps: [
        {
          name: 'Maybe',
          type: 'in_app',
          controlValues: { body: 'Shown', skip: { '==': [{ var: 'payload.quiet' }, true] } },
        },
      ],
    });
    const transactionId = 'v2-skip-quiet';
    await sdk.novu.trigger({ workflowId: 'v2-skip', to: 'v2-skip-sub', payload: { quiet: true }, transactionId });
    await waitFor(
      async () =>
        (
          await sdk.t.db
            .select()
            .from(jobs)
            .where(and(eq(jobs.transactionId, transactionId), eq(jobs.status, 'canceled')))
        ).length === 1,
      { description: 'the skipped job' },
    );
    expect(await sdk.t.db.select().from(messages).where(eq(messages.transactionId, transactionId))).toEqual([]);
    expect(await deliverInApp(sdk.novu, 'v2-skip', 'v2-skip-sub', { quiet: false })).toBe('Shown');
  });

  it('reads a /v1 workflow through v2 with origin novu-cloud-v1', async () => {
    const v1 = await sdk.t.api('post', '/v1/workflows').send({
      name: 'Legacy',
      identifier: 'v1-legacy',
      steps: [
        { template: { type: 'in_app', content: 'Old {{payload.x}}', cta: { data: { url: '/old' } } } },
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      ],
    });
    expect(v1.status).toBe(201);
    const { result } = await sdk.novu.workflows.get('v1-legacy');
    expect(result).toMatchObject({ origin: 'novu-cloud-v1', workflowId: 'v1-legacy', status: 'ACTIVE' });
    expect(result.steps[0].controlValues).toMatchObject({ body: 'Old {{payload.x}}', redirect: { url: '/old' } });
    expect(result.steps[1].controlValues).toMatchObject({ type: 'regular', amount: 5, unit: 'minutes' });
  });

  it('syncs a workflow into Production, whose key then triggers it', async () => {
    const production = await sdk.t.createKeyFor('Production');
    const prodNovu = new Novu({ secretKey: production.apiKey, serverURL, retryConfig: { strategy: 'none' } });
    await sdk.novu.workflows.create(welcome('v2-sync'));
    await expectErrorDto(prodNovu.workflows.get('v2-sync'), 404);

    const { result: synced } = await sdk.novu.workflows.sync(
      { targetEnvironmentId: production.environment.id },
      'v2-sync',
    );
    expect(synced).toMatchObject({ workflowId: 'v2-sync', origin: 'novu-cloud' });
    const { result: inProduction } = await prodNovu.workflows.get('v2-sync');
    expect(inProduction.id).toBe(synced.id);
    expect(await deliverInApp(prodNovu, 'v2-sync', 'prod-sub', { orderId: 1 })).toBe('Hello Ada, order 1');

    // A second sync updates the same target workflow.
    await sdk.novu.workflows.patch({ name: 'Welcome v2' }, 'v2-sync');
    const { result: again } = await sdk.novu.workflows.sync(
      { targetEnvironmentId: production.environment.id },
      'v2-sync',
    );
    expect(again).toMatchObject({ id: synced.id, name: 'Welcome v2' });
    expect(again.steps.map((step) => step.id)).toEqual(synced.steps.map((step) => step.id));

    // Another organization's environment is not a target.
    const foreign = await sdk.t.createForeignKey();
    await expectErrorDto(sdk.novu.workflows.sync({ targetEnvironmentId: foreign.environment.id }, 'v2-sync'), 404);
    await expectValidationError(sdk.novu.workflows.sync({ targetEnvironmentId: sdk.t.environment.id }, 'v2-sync'));
  });

  it('previews a step through the delivery rendering and sends nothing', async () => {
    await sdk.novu.workflows.create(welcome('v2-preview'));
    const [messagesBefore, jobsBefore, requestsBefore] = [
      await rowCount(messages),
      await rowCount(jobs),
      receiver.requests.length,
    ];

    const { result: inApp } = await sdk.novu.workflows.steps.generatePreview({
      workflowId: 'v2-preview',
      stepId: 'in-app',
      generatePreviewRequestDto: {
        previewPayload: { subscriber: { firstName: '<b>Ada</b>' }, payload: { orderId: 'A1' } },
      },
    });
    expect(inApp.result).toEqual({
      type: 'in_app',
      preview: {
        subject: 'Hi <b>Ada</b>',
        // The body is HTML, so its variables are escaped as they are on delivery.
        body: 'Hello &lt;b&gt;Ada&lt;/b&gt;, order A1',
        primaryAction: { label: 'Open', redirect: { url: '/orders/A1' } },
      },
    });
    expect(inApp.previewPayloadExample).toMatchObject({ payload: { orderId: 'A1' } });

    const { result: email } = await sdk.novu.workflows.steps.generatePreview({
      workflowId: 'v2-preview',
      stepId: 'welcome-email',
      generatePreviewRequestDto: {
        controlValues: { subject: 'Draft {{payload.orderId}}', body: '<h1>{{payload.orderId}}</h1>' },
        previewPayload: { payload: { orderId: 'B2' } },
      },
    });
    expect(email.result).toEqual({ type: 'email', preview: { subject: 'Draft B2', body: '<h1>B2</h1>' } });

    const invalid = await expectValidationError(
      sdk.novu.workflows.steps.generatePreview({
        workflowId: 'v2-preview',
        stepId: 'welcome-email',
        generatePreviewRequestDto: { controlValues: { subject: '{{ payload.x | nope }}' } },
      }),
    );
    expect(Object.keys(invalid.errors)).toEqual(['controlValues.subject']);

    expect([await rowCount(messages), await rowCount(jobs), receiver.requests.length]).toEqual([
      messagesBefore,
      jobsBefore,
      requestsBefore,
    ]);
  });

  it('refuses a payload that does not match the schema when validatePayload is on', async () => {
    const payloadSchema = {
      type: 'object',
      properties: { orderId: { type: 'number' } },
      required: ['orderId'],
    };
    await sdk.novu.workflows.create(welcome('v2-schema', { validatePayload: true, payloadSchema }));
    const wrongType = await expectValidationError(
      sdk.novu.trigger({ workflowId: 'v2-schema', to: 'schema-sub', payload: { orderId: 'x' } }),
    );
    expect(Object.keys(wrongType.errors)).toEqual(['payload.orderId']);
    const missing = await expectValidationError(
      sdk.novu.trigger({ workflowId: 'v2-schema', to: 'schema-sub', payload: {} }),
    );
    expect(Object.keys(missing.errors)).toEqual(['payload.orderId']);
    const { result: bulk } = await sdk.novu.triggerBulk({
      events: [
        { workflowId: 'v2-schema', to: 'schema-sub', payload: { orderId: 'x' } },
        { workflowId: 'v2-schema', to: 'schema-sub', payload: { orderId: 4 } },
      ],
    });
    expect(bulk.map((event) => event.status)).toEqual(['error', 'processed']);
    expect(bulk[0].error).toEqual([expect.stringContaining('payload.orderId')]);
    expect(await deliverInApp(sdk.novu, 'v2-schema', 'schema-sub', { orderId: 3 })).toBe('Hello Ada, order 3');

    // With validatePayload off, the schema is kept but not enforced.
    await sdk.novu.workflows.patch({ validatePayload: false }, 'v2-schema');
    const { result } = await sdk.novu.trigger({ workflowId: 'v2-schema', to: 'schema-sub', payload: { orderId: 'x' } });
    expect(result.status).toBe('processed');

    const badSchema = await expectValidationError(
      sdk.novu.workflows.create(welcome('v2-bad-schema', { payloadSchema: { type: 'nonsense' } })),
    );
    expect(Object.keys(badSchema.errors)).toEqual(['payloadSchema']);
    const huge = { type: 'object', description: 'x'.repeat(70_000) };
    await expectValidationError(sdk.novu.workflows.create(welcome('v2-huge-schema', { payloadSchema: huge })));
  });

  it('answers 422 with the field path for bad input and 409 for a taken workflowId', async () => {
    const fieldsOf = async (body: CreateWorkflowDto) =>
      Object.keys((await expectValidationError(sdk.novu.workflows.create(body))).errors);

    expect(
      await fieldsOf({
        name: 'Dup',
        workflowId: 'v2-dup-steps',
        steps: [
          { name: 'One', stepId: 'same', type: 'sms', controlValues: { body: 'a' } },
          { name: 'Two', stepId: 'same', type: 'sms', controlValues: { body: 'b' } },
        ],
      }),
    ).toEqual(['steps[1].stepId']);
    expect(
      await fieldsOf({
        name: 'Broken',
        workflowId: 'v2-broken',
        steps: [{ name: 'Sms', type: 'sms', controlValues: { body: '{% if %}' } }],
      }),
    ).toEqual(['steps[0].controlValues.body']);
    expect(
      await fieldsOf({
        name: 'Delay',
        workflowId: 'v2-delay',
        steps: [{ name: 'Wait', type: 'delay', controlValues: { amount: 5, unit: 'fortnights' } }],
      }),
    ).toEqual(['steps[0].controlValues.unit']);
    expect(
      await fieldsOf({
        name: 'Skip',
        workflowId: 'v2-bad-skip',
        steps: [{ name: 'Sms', type: 'sms', controlValues: { body: 'a', skip: { nope: [1] } } }],
      }),
    ).toEqual(['steps[0].controlValues.skip']);
    expect(await fieldsOf({ name: 'x'.repeat(256), workflowId: 'v2-long', steps: [] })).toEqual(['name']);

    // Shapes the SDK itself refuses to send, through plain HTTP.
    const unknownType = await sdk.t
      .api('post', '/v2/workflows')
      .send({ name: 'Odd', workflowId: 'v2-odd', steps: [{ name: 'Fax', type: 'fax' }] });
    expect(unknownType.status).toBe(422);
    expect(Object.keys(unknownType.body.errors)).toEqual(['steps[0].type']);

    const hostile: [Record<string, unknown>, string][] = [
      [{ steps: [[]] }, 'steps'],
      [{ steps: [{ name: 'S', type: 'sms', controlValues: [] }] }, 'steps[0].controlValues'],
      [
        { steps: [{ name: 'S', type: 'sms', controlValues: { body: { nested: true } } }] },
        'steps[0].controlValues.body',
      ],
      [
        { steps: [{ name: 'I', type: 'in_app', controlValues: { redirect: { url: 5 } } }] },
        'steps[0].controlValues.redirect.url',
      ],
      [
        { steps: [{ name: 'H', type: 'http_request', controlValues: { url: 'ftp://x' } }] },
        'steps[0].controlValues.url',
      ],
      [{ steps: [], preferences: { user: 'x' } }, 'preferences.user'],
      [{ steps: [], payloadSchema: 'x' }, 'payloadSchema'],
      [{ steps: [], tags: Array.from({ length: 17 }, (_, index) => `t${index}`) }, 'tags'],
    ];
    for (const [body, field] of hostile) {
      const res = await sdk.t.api('post', '/v2/workflows').send({ name: 'Hostile', workflowId: 'v2-hostile', ...body });
      expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([422, [expect.stringContaining(field)]]);
    }
    const paging = await sdk.t.api('get', '/v2/workflows?limit=abc&orderBy=nope');
    expect(paging.status).toBe(422);

    await sdk.novu.workflows.create(welcome('v2-taken'));
    await expectErrorDto(sdk.novu.workflows.create(welcome('v2-taken')), 409);
  });

  it("answers 404 for an unknown workflow and for another environment's", async () => {
    await sdk.novu.workflows.create(welcome('v2-private'));
    await expectErrorDto(sdk.novu.workflows.get('v2-nothing'), 404);
    await expectErrorDto(sdk.novu.workflows.steps.retrieve('v2-private', 'nope'), 404);

    const production = await sdk.t.createKeyFor('Production');
    const foreign = await sdk.t.createForeignKey();
    for (const key of [production.apiKey, foreign.apiKey]) {
      const other = new Novu({ secretKey: key, serverURL, retryConfig: { strategy: 'none' } });
      await expectErrorDto(other.workflows.get('v2-private'), 404);
      await expectErrorDto(other.workflows.patch({ active: false }, 'v2-private'), 404);
      await expectErrorDto(other.workflows.delete('v2-private'), 404);
      await expectErrorDto(other.workflows.sync({ targetEnvironmentId: production.environment.id }, 'v2-private'), 404);
    }
    expect((await sdk.novu.workflows.get('v2-private')).result.active).toBe(true);
  });

  // Last: the layout it creates becomes the environment's default for every email step after it.
  it("previews an email inside the environment's layout, with environment variables (secrets masked)", async () => {
    await sdk.novu.layouts.create({ layoutId: 'v2-brand', name: 'Brand' });
    await sdk.novu.layouts.update(
      {
        name: 'Brand',
        controlValues: { email: { body: '<main>{{env.BRAND}}: {{content}}</main>', editorType: 'html' } },
      },
      'v2-brand',
    );
    await sdk.novu.environmentVariables.create({
      key: 'BRAND',
      values: [{ environmentId: sdk.t.environment.id, value: 'Acme' }],
    });
    await sdk.novu.environmentVariables.create({
      key: 'PREVIEW_TOKEN',
      isSecret: true,
      values: [{ environmentId: sdk.t.environment.id, value: 'never-shown-in-a-preview' }],
    });
    await sdk.novu.workflows.create(welcome('v2-preview-layout'));
    const { result } = await sdk.novu.workflows.steps.generatePreview({
      workflowId: 'v2-preview-layout',
      stepId: 'welcome-email',
      generatePreviewRequestDto: {
        controlValues: {
          subject: 'Order {{payload.orderId}}',
          body: '<p>{{payload.orderId}} {{env.PREVIEW_TOKEN}}</p>',
        },
        previewPayload: { payload: { orderId: 'C3' } },
      },
    });
    expect(result.result.type).toBe('email');
    const body = (result.result.preview as { body: string }).body;
    expect(body).toMatch(/^<main>Acme: <p>C3 \S+<\/p><\/main>$/);
    expect(body).not.toContain('never-shown-in-a-preview');
  });
});
