import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '#common';
import { idempotencyKeys, layouts, workflows, type Environment } from '#dal';
import { messagesOf, triggerWithKeyAndSettle } from '../support/engine-fixtures.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

const inAppWorkflow = (identifier: string, content: string, extra: Record<string, unknown> = {}) => ({
  name: identifier,
  identifier,
  steps: [{ name: 'Inbox', template: { type: 'in_app', content } }],
  ...extra,
});

/** The call fails with this HTTP status, whatever error class the SDK raises for it. */
async function expectStatus(call: Promise<unknown>, statusCode: number): Promise<void> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toMatchObject({ statusCode });
}

describe('@novu/api: environments (list, create, update, delete, tags, diff, publish)', () => {
  let sdk: SdkApp;
  let url: string;
  let development: Environment;
  let production: { apiKey: string; environment: Environment };
  let foreign: Novu;

  const clientFor = (secretKey: string) => new Novu({ secretKey, serverURL: url, retryConfig: { strategy: 'none' } });

  const createWorkflow = async (body: Record<string, unknown>) => {
    const res = await sdk.t.api('post', '/v1/workflows').send(body);
    expect(res.status).toBe(201);
  };

  const workflowsOf = (environmentId: string, identifier: string) =>
    sdk.t.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.environmentId, environmentId), eq(workflows.identifier, identifier)));

  const publishToProduction = async (body: Record<string, unknown> = {}) =>
    (await sdk.novu.environments.publish({ sourceEnvironmentId: development.id, ...body }, production.environment.id))
      .result;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { port } = sdk.t.app.getHttpServer().address() as { port: number };
    url = `http://127.0.0.1:${port}`;
    development = sdk.t.environment;
    production = await sdk.t.createKeyFor('Production');
    foreign = clientFor((await sdk.t.createForeignKey()).apiKey);
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it("list shows the organization's environments: Development's parent is Production, and no API keys", async () => {
    const { result } = await sdk.novu.environments.list();
    expect(result.map((environment) => [environment.name, environment.type])).toEqual([
      ['Development', 'dev'],
      ['Production', 'prod'],
    ]);
    expect(result[0]).toMatchObject({ id: development.id, parentId: production.environment.id });
    expect(result[1].parentId).toBeUndefined();
    for (const environment of result) expect(environment.apiKeys).toBeUndefined();
    // Another organization's key sees its own environment only.
    const other = await foreign.environments.list();
    expect(other.result.map((environment) => environment.id)).not.toContain(development.id);
  });

  it("create answers the new environment with its key once; the key works and sees none of Development's data", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'dev-only', firstName: 'Dev' });
    const { result } = await sdk.novu.environments.create({ name: 'Staging', color: '#ff8547' });
    expect(result).toMatchObject({ name: 'Staging', type: 'dev', parentId: production.environment.id });
    expect(result.apiKeys).toHaveLength(1);
    const staging = clientFor(result.apiKeys![0].key);
    const me = await sdk.t.api('get', '/v1/environments/me', result.apiKeys![0].key);
    expect(me.body).toMatchObject({ _id: result.id, name: 'Staging', color: '#ff8547' });
    await expectErrorDto(staging.subscribers.retrieve('dev-only'), 404);
    expect((await staging.subscribers.search({})).result.data).toEqual([]);
    await staging.subscribers.create({ subscriberId: 'staging-only' });
    await expectErrorDto(sdk.novu.subscribers.retrieve('staging-only'), 404);
    // The list never shows it again.
    const listed = (await sdk.novu.environments.list()).result.find((environment) => environment.id === result.id);
    expect(listed?.apiKeys).toBeUndefined();

    await expectErrorDto(sdk.novu.environments.create({ name: 'Staging', color: '#000000' }), 409);
    const invalid = await expectValidationError(sdk.novu.environments.create({ name: ' ', color: 'red' }));
    expect(Object.keys(invalid.errors ?? {})).toEqual(expect.arrayContaining(['name', 'color']));
    const badParent = await expectValidationError(
      sdk.novu.environments.create({ name: 'Orphan', color: '#000000', parentId: UNKNOWN_ID }),
    );
    expect(Object.keys(badParent.errors ?? {})).toEqual(['parentId']);
  });

  it('a create replayed by its Idempotency-Key answers the environment without its key, which is stored nowhere', async () => {
    const first = await sdk.novu.environments.create({ name: 'Replayed', color: '#abcdef' }, 'create-replayed');
    const key = first.result.apiKeys![0].key;
    const replay = await sdk.novu.environments.create({ name: 'Replayed', color: '#abcdef' }, 'create-replayed');
    expect(replay.headers['idempotency-replay']).toEqual(['true']);
    expect(replay.result).toMatchObject({ id: first.result.id, name: 'Replayed' });
    expect(replay.result.apiKeys).toBeUndefined();
    const stored = await sdk.t.db.select().from(idempotencyKeys);
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it('update changes name, colour and parent; the default environments keep their names', async () => {
    const { result: created } = await sdk.novu.environments.create({ name: 'Preview', color: '#111111' });
    const { result } = await sdk.novu.environments.update(
      { name: 'Preview 2', color: '#222222', parentId: development.id },
      created.id,
    );
    expect(result).toMatchObject({ id: created.id, name: 'Preview 2', parentId: development.id });
    const row = (await sdk.novu.environments.list()).result.find((environment) => environment.id === created.id);
    expect(row?.name).toBe('Preview 2');

    await expectValidationError(sdk.novu.environments.update({ name: 'Dev' }, development.id));
    await expectErrorDto(sdk.novu.environments.update({ name: 'Staging' }, created.id), 409);
    await expectValidationError(sdk.novu.environments.update({ parentId: created.id }, created.id));
    // Development is Preview 2's parent: Development taking Preview 2 as parent would be a cycle.
    await expectValidationError(sdk.novu.environments.update({ parentId: created.id }, development.id));
  });

  it("update sets and clears the retention overrides (not in Novu's SDK, which reads the answers unchanged)", async () => {
    const { result: created } = await sdk.novu.environments.create({ name: 'Retained', color: '#333333' });
    const put = (retention: unknown) => sdk.t.api('put', `/v1/environments/${created.id}`).send({ retention });
    const set = await put({ activityDays: 7, messagesDays: 365 });
    expect(set.status).toBe(200);
    expect(set.body.retention).toEqual({
      activityDays: 7,
      messagesDays: 365,
      activityDaysOverride: 7,
      messagesDaysOverride: 365,
    });
    const { result } = await sdk.novu.environments.update({ color: '#444444' }, created.id);
    expect(result).toMatchObject({ id: created.id, name: 'Retained' });
    expect((await sdk.novu.environments.list()).result.map((environment) => environment.id)).toContain(created.id);

    const cleared = await put({ activityDays: null });
    expect(cleared.body.retention).toEqual({
      activityDays: 30,
      messagesDays: 365,
      activityDaysOverride: null,
      messagesDaysOverride: 365,
    });
    for (const [retention, field] of [
      [{ activityDays: 0 }, 'retention.activityDays'],
      [{ messagesDays: 3651 }, 'retention.messagesDays'],
      [{ activityDays: 7.5 }, 'retention.activityDays'],
      [{ messagesDays: '7' }, 'retention.messagesDays'],
      [null, 'retention'],
      ['forever', 'retention'],
    ] as const) {
      const refused = await put(retention);
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.errors)).toEqual([field]);
    }
    const [stored] = (await sdk.t.api('get', '/v1/environments')).body.filter(
      (environment: { _id: string }) => environment._id === created.id,
    );
    expect(stored.retention).toEqual(cleared.body.retention);
  });

  it("getTags answers the distinct tags of the environment's workflows", async () => {
    await createWorkflow(inAppWorkflow('tagged-a', 'A', { tags: ['billing', 'news'] }));
    await createWorkflow(inAppWorkflow('tagged-b', 'B', { tags: ['news'] }));
    const { result } = await sdk.novu.environments.getTags(development.id);
    expect(result).toEqual([{ name: 'billing' }, { name: 'news' }]);
    expect((await sdk.novu.environments.getTags(production.environment.id)).result).toEqual([]);
  });

  it('a workflow made in Development is shown as added, a dry run changes nothing, and once published it delivers in Production', async () => {
    await createWorkflow(inAppWorkflow('welcome', 'Welcome {{subscriber.firstName}}'));
    await sdk.t.db.insert(layouts).values({
      id: newId(),
      environmentId: development.id,
      organizationId: development.organizationId,
      layoutId: 'brand',
      name: 'Brand',
      controlValues: { email: { body: '<main>{{content}}</main>', editorType: 'html' } },
    });

    // Without sourceEnvironmentId the source is Development.
    const { result: diff } = await sdk.novu.environments.diff({}, production.environment.id);
    expect(diff).toMatchObject({ sourceEnvironmentId: development.id, targetEnvironmentId: production.environment.id });
    const welcome = diff.resources.find((resource) => resource.sourceResource?.id === 'welcome');
    expect(welcome).toMatchObject({ resourceType: 'REGULAR', targetResource: null });
    expect(welcome?.changes[0]).toMatchObject({ action: 'added', diffs: { previous: null } });
    expect(welcome?.changes[1]).toMatchObject({ action: 'added', stepType: 'in_app', newIndex: 0 });
    expect(welcome?.summary).toEqual({ added: 2, modified: 0, deleted: 0, unchanged: 0 });
    const brand = diff.resources.find((resource) => resource.sourceResource?.id === 'brand');
    expect(brand).toMatchObject({ resourceType: 'BRIDGE', changes: [{ action: 'added' }] });
    expect(diff.summary).toMatchObject({ totalEntities: diff.resources.length, hasChanges: true });

    const dry = await publishToProduction({ dryRun: true });
    expect(dry.results.find((r) => r.resourceType === 'REGULAR')?.successful).toContainEqual({
      resourceType: 'REGULAR',
      resourceId: 'welcome',
      resourceName: 'welcome',
      action: 'created',
    });
    expect(await workflowsOf(production.environment.id, 'welcome')).toEqual([]);
    const res = await sdk.t.api('post', '/v1/events/trigger', production.apiKey).send({ name: 'welcome', to: 'ada' });
    expect(res.status).toBe(422);

    const published = await publishToProduction();
    expect(published.summary).toMatchObject({ failed: 0, skipped: 0, successful: diff.resources.length });
    const [copy] = await workflowsOf(production.environment.id, 'welcome');
    const [original] = await workflowsOf(development.id, 'welcome');
    expect(copy.id).not.toBe(original.id);
    expect(copy.steps[0]._id).not.toBe(original.steps[0]._id);
    expect(copy.notificationGroupId).not.toBe(original.notificationGroupId);
    const prodLayouts = await sdk.t.db
      .select()
      .from(layouts)
      .where(eq(layouts.environmentId, production.environment.id));
    expect(prodLayouts.map((layout) => layout.layoutId)).toEqual(['brand']);

    const { transactionId } = await triggerWithKeyAndSettle(sdk.t, production.apiKey, {
      name: 'welcome',
      to: { subscriberId: 'ada', firstName: 'Ada' },
    });
    const [message] = await messagesOf(sdk.t, transactionId);
    expect(message).toMatchObject({
      environmentId: production.environment.id,
      channel: 'in_app',
      content: 'Welcome Ada',
    });

    const after = await sdk.novu.environments.diff({ sourceEnvironmentId: development.id }, production.environment.id);
    expect(after.result).toMatchObject({
      resources: [],
      summary: { totalEntities: 0, totalChanges: 0, hasChanges: false },
    });
  });

  it('a change published over a workflow Production has just run is what the next trigger there runs (no stale cache)', async () => {
    const trigger = async () => {
      const { transactionId } = await triggerWithKeyAndSettle(sdk.t, production.apiKey, { name: 'welcome', to: 'ada' });
      return (await messagesOf(sdk.t, transactionId))[0].content;
    };
    expect(await trigger()).toBe('Welcome Ada');
    const updated = await sdk.t.api('put', '/v1/workflows/welcome').send({
      steps: [{ name: 'Inbox', template: { type: 'in_app', content: 'Hello again {{subscriber.firstName}}' } }],
    });
    expect(updated.status).toBe(200);
    const { result } = await sdk.novu.environments.diff({}, production.environment.id);
    expect(result.resources).toHaveLength(1);
    expect(result.resources[0].summary).toEqual({ added: 0, modified: 1, deleted: 0, unchanged: 1 });
    await publishToProduction({ resources: [{ resourceType: 'REGULAR', resourceId: 'welcome' }] });
    expect(await trigger()).toBe('Hello again Ada');
  });

  it('publishes only the resources named; a workflow deleted in the source is soft-deleted in the target', async () => {
    await createWorkflow(inAppWorkflow('only-dev', 'x'));
    expect((await sdk.t.api('delete', '/v1/workflows/tagged-b')).status).toBe(200);
    const result = await publishToProduction({
      resources: [
        { resourceType: 'REGULAR', resourceId: 'tagged-b' },
        { resourceType: 'REGULAR', resourceId: 'no-such-workflow' },
      ],
    });
    const workflowResult = result.results.find((r) => r.resourceType === 'REGULAR')!;
    expect(workflowResult.successful).toEqual([
      { resourceType: 'REGULAR', resourceId: 'tagged-b', resourceName: 'tagged-b', action: 'deleted' },
    ]);
    expect(workflowResult.skipped.map((skipped) => skipped.resourceId)).toEqual(['no-such-workflow']);
    const [deleted] = await workflowsOf(production.environment.id, 'tagged-b');
    expect(deleted.deleted).toBe(true);
    expect(await workflowsOf(production.environment.id, 'only-dev')).toEqual([]);
  });

  it('a publish whose one write fails changes nothing and reports that resource failed', async () => {
    await createWorkflow(inAppWorkflow('alpha', 'A'));
    await createWorkflow(inAppWorkflow('omega', 'O'));
    // Layouts are written first: the failing workflow must take this one back with it.
    await sdk.t.db.insert(layouts).values({
      id: newId(),
      environmentId: development.id,
      organizationId: development.organizationId,
      layoutId: 'footer',
      name: 'Footer',
    });
    await sdk.t.db.execute(sql`CREATE OR REPLACE FUNCTION refuse_omega() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await sdk.t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_omega BEFORE INSERT ON workflows FOR EACH ROW
      WHEN (NEW.identifier = 'omega' AND NEW.environment_id = '${production.environment.id}')
      EXECUTE FUNCTION refuse_omega()`),
    );
    try {
      const result = await publishToProduction();
      const workflowResult = result.results.find((r) => r.resourceType === 'REGULAR')!;
      expect(workflowResult.failed.map((failed) => failed.resourceId)).toEqual(['omega']);
      expect(workflowResult.successful).toEqual([]);
      expect(workflowResult.skipped.map((skipped) => skipped.resourceId)).toEqual(
        expect.arrayContaining(['alpha', 'only-dev']),
      );
      expect(result.results.find((r) => r.resourceType === 'BRIDGE')?.skipped).toEqual([
        expect.objectContaining({ resourceId: 'footer', reason: 'Rolled back: workflow omega could not be written' }),
      ]);
      expect(result.summary).toMatchObject({ successful: 0, failed: 1 });
    } finally {
      await sdk.t.db.execute(sql`DROP TRIGGER refuse_omega ON workflows`);
    }
    expect(await workflowsOf(production.environment.id, 'alpha')).toEqual([]);
    expect(await workflowsOf(production.environment.id, 'only-dev')).toEqual([]);
    const prodLayouts = await sdk.t.db
      .select()
      .from(layouts)
      .where(eq(layouts.environmentId, production.environment.id));
    expect(prodLayouts.map((layout) => layout.layoutId)).toEqual(['brand']);
    const { result } = await sdk.novu.environments.diff({}, production.environment.id);
    expect(result.resources.map((resource) => resource.sourceResource?.id)).toEqual(
      expect.arrayContaining(['footer', 'alpha', 'omega', 'only-dev']),
    );
  });

  it('publishing an environment into itself is a 422; unknown and malformed ids are 404', async () => {
    await expectValidationError(sdk.novu.environments.publish({ sourceEnvironmentId: development.id }, development.id));
    await expectValidationError(sdk.novu.environments.diff({}, development.id));
    await expectErrorDto(sdk.novu.environments.diff({}, UNKNOWN_ID), 404);
    await expectErrorDto(sdk.novu.environments.getTags('not-an-id'), 404);
    await expectErrorDto(
      sdk.novu.environments.publish({ sourceEnvironmentId: UNKNOWN_ID }, production.environment.id),
      404,
    );
    const invalid = await sdk.t
      .api('post', `/v2/environments/${production.environment.id}/publish`)
      .send({ dryRun: 'yes', resources: [{ resourceType: 'agent', resourceId: '' }, []] });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(
      expect.arrayContaining(['dryRun', 'resources', 'resources[0].resourceType', 'resources[0].resourceId']),
    );
  });

  it("another organization's key gets 404 for every id of this organization", async () => {
    const target = production.environment.id;
    await expectErrorDto(foreign.environments.update({ name: 'Taken' }, target), 404);
    await expectErrorDto(foreign.environments.delete(target), 404);
    await expectErrorDto(foreign.environments.getTags(development.id), 404);
    await expectErrorDto(foreign.environments.diff({}, target), 404);
    await expectErrorDto(foreign.environments.diff({ sourceEnvironmentId: development.id }, target), 404);
    await expectErrorDto(foreign.environments.publish({ sourceEnvironmentId: development.id }, target), 404);
  });

  it("delete refuses the caller's environment and the defaults, and a deleted environment's key is refused at once", async () => {
    await expectValidationError(sdk.novu.environments.delete(development.id));
    await expectValidationError(sdk.novu.environments.delete(production.environment.id));
    const { result } = await sdk.novu.environments.create({ name: 'Doomed', color: '#123456' });
    const doomed = clientFor(result.apiKeys![0].key);
    // The key is used (and cached by the guard) before the delete.
    expect((await doomed.subscribers.search({})).result.data).toEqual([]);
    await expectValidationError(doomed.environments.delete(result.id));
    await sdk.novu.environments.delete(result.id);
    await expectStatus(doomed.subscribers.search({}), 401);
    expect((await sdk.novu.environments.list()).result.map((environment) => environment.id)).not.toContain(result.id);
    await expectErrorDto(sdk.novu.environments.delete(result.id), 404);
  });

  it('an organization holds at most 20 environments; a delete makes room again', async () => {
    const existing = (await sdk.novu.environments.list()).result.length;
    const created: string[] = [];
    for (let index = existing; index < 20; index += 1)
      created.push((await sdk.novu.environments.create({ name: `Extra ${index}`, color: '#222222' })).result.id);
    const refused = await expectValidationError(
      sdk.novu.environments.create({ name: 'One too many', color: '#222222' }),
    );
    expect(Object.keys(refused.errors)).toEqual(['name']);
    expect((await sdk.novu.environments.list()).result).toHaveLength(20);
    await sdk.novu.environments.delete(created[0]);
    await sdk.novu.environments.create({ name: 'One too many', color: '#222222' });
  });
});
