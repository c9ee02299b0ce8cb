import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { apiKeys, idempotencyKeys } from '#dal';
import { signedIn, type DashboardBrowser } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('API keys over HTTP: list, create (shown once), revoke', () => {
  let t: TestApp;
  let admin: DashboardBrowser;
  const keysPath = (environmentId = t.environment.id) => `/v1/environments/${environmentId}/api-keys`;
  const keyRows = (environmentId = t.environment.id) =>
    t.db.select().from(apiKeys).where(eq(apiKeys.environmentId, environmentId));
  const me = (key: string) => t.api('get', '/v1/environments/me', key);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signedIn(t, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists an environment's keys by prefix and date, never the key", async () => {
    const res = await admin.send('get', keysPath());
    expect(res.status).toBe(200);
    const [row] = await keyRows();
    expect(res.body).toEqual([
      { _id: row.id, _environmentId: t.environment.id, prefix: t.apiKey.slice(0, 8), createdAt: expect.any(String) },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(t.apiKey);
    expect(JSON.stringify(res.body)).not.toContain(row.keyHash);
  });

  it('creates a key shown once, which works at once; the list then shows only its prefix', async () => {
    const before = (await keyRows()).length;
    const created = await admin.send('post', keysPath());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.any(String),
      _environmentId: t.environment.id,
      prefix: String(created.body.key).slice(0, 8),
      createdAt: expect.any(String),
      key: expect.stringMatching(/^[0-9a-f]{48}$/),
    });
    expect(await keyRows()).toHaveLength(before + 1);
    expect((await me(created.body.key)).body._id).toBe(t.environment.id);
    const list = await admin.send('get', keysPath());
    expect(list.body.map((key: { _id: string }) => key._id)).toContain(created.body._id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it('refuses a revoked key on the very next request, and keeps the other keys working', async () => {
    const created = await admin.send('post', keysPath());
    const key = String(created.body.key);
    // Used once, so this process has it cached: the revoke must reach the cache too.
    expect((await me(key)).status).toBe(200);
    const revoked = await admin.send('delete', `${keysPath()}/${created.body._id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ acknowledged: true, status: 'deleted' });
    const refused = await me(key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ statusCode: 401, message: 'API Key not found' });
    expect((await me(t.apiKey)).status).toBe(200);
    expect((await keyRows()).map((row) => row.id)).not.toContain(created.body._id);
    expect((await admin.send('delete', `${keysPath()}/${created.body._id}`)).status).toBe(404);
  });

  it("answers 404 for another environment's or organization's key and changes nothing", async () => {
    const production = await t.createKeyFor('Production');
    const foreign = await t.createForeignKey();
    const [productionKey] = await keyRows(production.environment.id);
    const [foreignKey] = await keyRows(foreign.environment.id);
    const before = await t.db.select().from(apiKeys);
    const attempts = [
      admin.send('delete', `${keysPath()}/${productionKey.id}`),
      admin.send('delete', `${keysPath(foreign.environment.id)}/${foreignKey.id}`),
      t.api('delete', `${keysPath(foreign.environment.id)}/${foreignKey.id}`),
      admin.send('delete', `${keysPath()}/${UNKNOWN_ID}`),
      admin.send('delete', `${keysPath()}/not-an-id`),
      admin.send('get', keysPath(foreign.environment.id)),
      admin.send('post', keysPath(foreign.environment.id)),
      admin.send('get', keysPath('not-an-id')),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', path: expect.any(String) });
    }
    expect((await t.db.select().from(apiKeys)).length).toBe(before.length);
    expect((await me(production.apiKey)).status).toBe(200);
    expect((await me(foreign.apiKey)).status).toBe(200);
  });

  it("manages another environment of the organization through its path, with a session's or an API key", async () => {
    const production = await t.createKeyFor('Production');
    const created = await t.api('post', keysPath(production.environment.id));
    expect(created.status).toBe(201);
    expect((await me(created.body.key)).body._id).toBe(production.environment.id);
    const list = await admin.send('get', keysPath(production.environment.id));
    expect(list.body.map((key: { _id: string }) => key._id)).toContain(created.body._id);
  });

  it('refuses viewers and editors (403) on every key route, changing nothing', async () => {
    const [existing] = await keyRows();
    const before = (await keyRows()).length;
    for (const role of ['viewer', 'editor'] as const) {
      const session = await signedIn(t, role);
      for (const res of [
        await session.send('get', keysPath()),
        await session.send('post', keysPath()),
        await session.send('delete', `${keysPath()}/${existing.id}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, message: `This needs the admin role; you are ${role}` });
      }
    }
    expect(await keyRows()).toHaveLength(before);
  });

  it('answers a create replayed by its Idempotency-Key without the key', async () => {
    const send = () => admin.send('post', keysPath()).set('Idempotency-Key', 'new-key-once');
    const first = await send();
    expect(first.status).toBe(201);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.body._id).toBe(first.body._id);
    expect(replay.body.key).toBeUndefined();
    const stored = await t.db.select().from(idempotencyKeys);
    expect(JSON.stringify(stored)).not.toContain(first.body.key);
  });

  it('lets the last key of an environment go: the environment then has none until one is created', async () => {
    const staging = await admin.send('post', '/v1/environments').send({ name: 'Keyless', color: '#123456' });
    const environmentId = String(staging.body._id);
    const [only] = await keyRows(environmentId);
    expect((await admin.send('delete', `${keysPath(environmentId)}/${only.id}`)).status).toBe(200);
    expect((await me(staging.body.apiKeys[0].key)).status).toBe(401);
    expect(await keyRows(environmentId)).toEqual([]);
    const again = await admin.send('post', keysPath(environmentId));
    expect((await me(again.body.key)).body._id).toBe(environmentId);
  });

  it('lets a key revoke itself (rotation): its next request is refused', async () => {
    const created = await admin.send('post', keysPath());
    const key = String(created.body.key);
    expect((await t.api('delete', `${keysPath()}/${created.body._id}`, key)).status).toBe(200);
    expect((await me(key)).status).toBe(401);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const { paths } = (await t.http.get('/api-docs-json')).body;
    expect(Object.keys(paths['/v1/environments/{environmentId}/api-keys'])).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/environments/{environmentId}/api-keys/{keyId}'])).toEqual(['delete']);
  });
});
