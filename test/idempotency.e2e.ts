import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, IdempotencyRepository, tenants, triggerEvents } from '#dal';
import { MaintenanceRun } from '#event-processing';
import { createWorkflow, inApp } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const createTenant = (key: string, body: object, apiKey?: string) =>
    t.api('post', '/v1/tenants', apiKey).set('Idempotency-Key', key).send(body);

  it('replays the stored response for the same key and body, creating nothing new', async () => {
    const first = await createTenant('k-1', { identifier: 'idem-1', name: 'One' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-replay']).toBeUndefined();
    const replay = await createTenant('k-1', { identifier: 'idem-1', name: 'One' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const rows = await t.db.select().from(tenants).where(eq(tenants.identifier, 'idem-1'));
    expect(rows).toHaveLength(1);
  });

  it('answers 422 when the key is reused with a different body, and changes nothing', async () => {
    await createTenant('k-2', { identifier: 'idem-2', name: 'Two' });
    const res = await createTenant('k-2', { identifier: 'idem-2b', name: 'Other' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/different request body/);
    expect(await t.db.select().from(tenants).where(eq(tenants.identifier, 'idem-2b'))).toHaveLength(0);
  });

  it('answers 409 with Retry-After while the first request is still running', async () => {
    const body = { identifier: 'idem-3', name: 'Three' };
    const hash = createHash('sha256')
      .update(`POST /v1/tenants\n${JSON.stringify(body)}`)
      .digest('hex');
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    await t.app.get(IdempotencyRepository).claim(scope, 'k-3', hash, new Date(), 60);
    const res = await createTenant('k-3', body);
    expect(res.status).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(await t.db.select().from(tenants).where(eq(tenants.identifier, 'idem-3'))).toHaveLength(0);
  });

  it('rejects a key longer than 255 characters with 400', async () => {
    const res = await createTenant('x'.repeat(256), { identifier: 'idem-4', name: 'Four' });
    expect(res.status).toBe(400);
    expect(await t.db.select().from(tenants).where(eq(tenants.identifier, 'idem-4'))).toHaveLength(0);
  });

  it('releases the key when the first request fails, so a corrected retry runs', async () => {
    const bad = await createTenant('k-5', { identifier: 'idem-5' });
    expect(bad.status).toBe(422);
    const good = await createTenant('k-5', { identifier: 'idem-5', name: 'Five' });
    expect(good.status).toBe(201);
    expect(good.headers['idempotency-replay']).toBeUndefined();
  });

  it('replays a trigger: the same transactionId, one stored event', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp()] });
    const trigger = () =>
      t
        .api('post', '/v1/events/trigger')
        .set('Idempotency-Key', 'k-trigger')
        .send({ name: workflow.identifier, to: 'idem-subscriber' });
    const first = await trigger();
    expect(first.status).toBe(201);
    const replay = await trigger();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const events = await t.db
      .select()
      .from(triggerEvents)
      .where(eq(triggerEvents.transactionId, first.body.transactionId));
    expect(events).toHaveLength(1);
  });

  it('keeps no integration credential in the stored response, and a replay after rotating them returns none', async () => {
    const body = {
      providerId: 'nodemailer',
      channel: 'email',
      identifier: 'idem-smtp',
      credentials: {
        host: 'smtp.idem.test',
        port: '2525',
        user: 'idem-user',
        password: 'idem-old-password',
        from: 'ops@idem.test',
      },
    };
    const create = () => t.api('post', '/v1/integrations').set('Idempotency-Key', 'k-integration').send(body);
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.credentials).toMatchObject({ password: 'idem-old-password' });
    const [stored] = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'k-integration'));
    expect(stored).toMatchObject({ state: 'done', responseStatus: 201 });
    const storedText = JSON.stringify(stored.responseBody);
    // Each value as a JSON string: the bare port could match part of an id ("01a22525-…").
    for (const value of Object.values(body.credentials)) expect(storedText).not.toContain(JSON.stringify(value));

    const rotated = await t
      .api('put', `/v1/integrations/${first.body._id}`)
      .send({ credentials: { ...body.credentials, password: 'idem-new-password' } });
    expect(rotated.status).toBe(200);
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body).toMatchObject({ _id: first.body._id, identifier: 'idem-smtp', credentials: {} });
    expect(JSON.stringify(replay.body)).not.toContain('idem-old-password');
    expect(JSON.stringify(replay.body)).not.toContain('idem-new-password');
  });

  it('scopes keys to the environment', async () => {
    const production = await t.createKeyFor('Production');
    await createTenant('k-6', { identifier: 'idem-6', name: 'Six' });
    const other = await createTenant('k-6', { identifier: 'idem-6', name: 'Six' }, production.apiKey);
    expect(other.status).toBe(201);
    expect(other.headers['idempotency-replay']).toBeUndefined();
  });

  it('the maintenance job deletes expired keys and their stored responses, and keeps live ones', async () => {
    await createTenant('k-expired', { identifier: 'idem-expired', name: 'Old' });
    await createTenant('k-live', { identifier: 'idem-live', name: 'Live' });
    await t.db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(idempotencyKeys.key, 'k-expired'));

    const report = await t.app.get(MaintenanceRun).run();

    expect(report.removed.idempotency_keys).toBeGreaterThanOrEqual(1);
    const remaining = (await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((row) => row.key);
    expect(remaining).not.toContain('k-expired');
    expect(remaining).toContain('k-live');
  });
});

describe('Idempotency-Key after the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_CONFIGURATION_PER_SECOND: '1', RATE_LIMIT_CONFIGURATION_BURST: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a rate-limited request leaves no key claimed: its retry runs once the limit allows', async () => {
    const send = (key: string, identifier: string) =>
      t.api('post', '/v1/tenants').set('Idempotency-Key', key).send({ identifier, name: identifier });
    expect((await send('limited-1', 'limited-1')).status).toBe(201);
    const limited = await send('limited-2', 'limited-2');
    expect(limited.status).toBe(429);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'limited-2'))).toHaveLength(0);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const retry = await send('limited-2', 'limited-2');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotency-replay']).toBeUndefined();
    const [stored] = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'limited-2'));
    expect(stored).toMatchObject({ state: 'done', responseStatus: 201, responseBody: retry.body });
  });
});
