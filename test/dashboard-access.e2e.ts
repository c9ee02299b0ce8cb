import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { workflows } from '#dal';
import { eq } from 'drizzle-orm';
import { ACCESS_AREA, ACCESS_AREAS, type AccessAreaName } from '#api/auth/access-areas.js';
import { IS_PUBLIC } from '#api/auth/auth-context.js';
import { signedIn, type DashboardBrowser } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Route {
  method: string;
  path: string;
  name: string;
  public: boolean;
  area?: AccessAreaName;
}

/** Every route Nest registered, from the controllers' metadata (what Nest's own router reads). */
function registeredRoutes(t: TestApp): Route[] {
  const reflector = t.app.get(Reflector);
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (
        let proto = controller.prototype as object;
        proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto)
      ) {
        for (const name of Object.getOwnPropertyNames(proto)) {
          const handler = (proto as Record<string, unknown>)[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (method === undefined) continue;
          const targets = [handler, controller];
          for (const path of ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, handler) as string)) {
            routes.push({
              method: RequestMethod[method],
              path: `/${prefix}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'),
              name: `${controller.name}.${name}`,
              public: reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
              area: reflector.getAllAndOverride<AccessAreaName | undefined>(ACCESS_AREA, targets),
            });
          }
        }
      }
    }
  }
  return routes;
}

/** A path with its parameters filled in: the guard decides before any handler looks them up. */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
const call = (browser: DashboardBrowser, route: Route) =>
  browser.send(route.method.toLowerCase() as 'get', concrete(route.path)).send({});

/** Routes anyone may call, each with its own reason: probes, the inbox (its own session), the dashboard's login. */
const PUBLIC_ROUTES = /^\/(health|metrics|inbox-demo|v1\/inbox)(\/|$)|^POST \/v1\/dashboard\/(session|setup)$/;

describe('roles on every route', () => {
  let t: TestApp;
  let routes: Route[];
  beforeAll(async () => {
    t = await startTestApp();
    routes = registeredRoutes(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every registered route a decision: public, or an access area', () => {
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((route) => !route.public && !route.area).map((route) => route.name)).toEqual([]);
    const publicRoutes = routes.filter((route) => route.public);
    expect(
      publicRoutes.filter(
        (route) => !PUBLIC_ROUTES.test(route.path) && !PUBLIC_ROUTES.test(`${route.method} ${route.path}`),
      ),
    ).toEqual([]);
    // The inbox's own routes stay out of the dashboard's reach: its guard wants an inbox token.
    expect(routes.filter((route) => route.path.startsWith('/v1/inbox/') && !route.public)).toEqual([]);
  });

  it('refuses a viewer every write (403), on every route of every area', async () => {
    const viewer = await signedIn(t, 'viewer');
    const writes = routes.filter((route) => !route.public && !['GET', 'HEAD'].includes(route.method));
    for (const route of writes.filter((write) => write.area !== 'ownSession')) {
      const res = await call(viewer, route);
      const area = route.area!;
      expect({ route: `${route.method} ${route.path}`, status: res.status, message: res.body.message }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        message: `This needs the ${ACCESS_AREAS[area].write} role; you are viewer`,
      });
    }
  });

  it('lets a viewer read every content and administration route, and an editor write content but not administration', async () => {
    const viewer = await signedIn(t, 'viewer');
    const editor = await signedIn(t, 'editor');
    for (const route of routes.filter((one) => one.area === 'content' || one.area === 'administration')) {
      const browser = ['GET', 'HEAD'].includes(route.method) ? viewer : editor;
      const res = await call(browser, route);
      const refused = route.area === 'administration' && browser === editor;
      expect({ route: `${route.method} ${route.path}`, refused: [401, 403].includes(res.status) }).toEqual({
        route: `${route.method} ${route.path}`,
        refused,
      });
    }
  });
});

describe('roles on real routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a viewer reads workflows (200) and cannot create one (403, nothing stored)', async () => {
    const viewer = await signedIn(t, 'viewer');
    const list = await viewer.send('get', '/v1/workflows');
    expect(list.status).toBe(200);
    const created = await viewer
      .send('post', '/v2/workflows')
      .send({ name: 'Forged', workflowId: 'forged', steps: [] });
    expect(created.status).toBe(403);
    expect(created.body).toMatchObject({ statusCode: 403, path: '/v2/workflows', error: 'Forbidden' });
    expect(await t.db.select().from(workflows).where(eq(workflows.environmentId, t.environment.id))).toEqual([]);
  });

  it('an editor writes content; environments and webhook endpoints need an admin', async () => {
    const editor = await signedIn(t, 'editor');
    const admin = await signedIn(t, 'admin');
    expect((await editor.send('post', '/v2/topics').send({ key: 'editor-topic' })).status).toBe(201);
    expect(
      (await editor.send('post', '/v2/workflows').send({ name: 'Welcome', workflowId: 'welcome', steps: [] })).status,
    ).toBe(201);
    const environment = { name: 'Staging', color: '#ff8547' };
    expect((await editor.send('post', '/v1/environments').send(environment)).status).toBe(403);
    expect((await editor.send('post', '/v1/webhook-endpoints').send({ url: 'https://example.com/hook' })).status).toBe(
      403,
    );
    expect((await editor.send('get', '/v1/environments')).status).toBe(200);
    const created = await admin.send('post', '/v1/environments').send(environment);
    expect(created.status).toBe(201);
    expect(created.body.apiKeys).toHaveLength(1);
    expect((await admin.send('delete', `/v1/environments/${created.body._id}`)).status).toBe(200);
    // The session's user is recorded as who deleted.
    const deleted = await editor.send('delete', '/v2/workflows/welcome');
    expect(deleted.status).toBe(204);
    const [row] = await t.db.select().from(workflows).where(eq(workflows.environmentId, t.environment.id));
    expect(row.deletedBy).toBe(editor.body.user.id);
  });

  it('scopes a session to the environment it names in X-Environment-Id, among its organization’s', async () => {
    const production = await t.createKeyFor('Production');
    expect((await t.api('post', '/v2/topics', production.apiKey).send({ key: 'prod-only' })).status).toBe(201);
    const viewer = await signedIn(t, 'viewer');
    expect((await viewer.send('get', '/v2/topics/prod-only')).status).toBe(404);
    const picked = await viewer.send('get', '/v2/topics/prod-only', production.environment.id);
    expect(picked.status).toBe(200);
    expect((await viewer.send('get', '/v1/environments/me', production.environment.id)).body._id).toBe(
      production.environment.id,
    );

    const foreign = await t.createForeignKey();
    expect((await t.api('post', '/v2/topics', foreign.apiKey).send({ key: 'foreign-topic' })).status).toBe(201);
    const crossed = await viewer.send('get', '/v2/topics/foreign-topic', foreign.environment.id);
    expect(crossed.status).toBe(403);
    expect(crossed.body.message).toMatch(/not one of your organization/);
    expect((await viewer.send('get', '/v2/topics', 'not-a-uuid')).status).toBe(403);
    const unnamed = await t.http.get('/v2/topics').set('Cookie', viewer.cookie);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toMatch(/X-Environment-Id/);
  });

  it("never shows a session an integration's secrets, whatever its role; an API key still reads them", async () => {
    const credentials = { apiKey: 'SG.dashboard-secret', from: 'ops@example.com', senderName: 'Ops' };
    const created = await t
      .api('post', '/v1/integrations')
      .send({ providerId: 'sendgrid', channel: 'email', identifier: 'dashboard-secret', credentials });
    expect(created.status).toBe(201);
    for (const role of ['viewer', 'admin'] as const) {
      const session = await signedIn(t, role);
      const list = await session.send('get', '/v1/integrations');
      expect(list.status).toBe(200);
      const mine = list.body.find((row: { identifier: string }) => row.identifier === 'dashboard-secret');
      expect(mine.credentials).toEqual({ from: 'ops@example.com', senderName: 'Ops' });
      expect(JSON.stringify(list.body)).not.toContain('SG.dashboard-secret');
    }
    const byKey = await t.api('get', '/v1/integrations');
    const mine = byKey.body.find((row: { identifier: string }) => row.identifier === 'dashboard-secret');
    expect(mine.credentials).toMatchObject(credentials);
  });

  it("merges a session's credentials into the stored ones: left out kept, empty removed", async () => {
    const created = await t.api('post', '/v1/integrations').send({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'dashboard-merge',
      credentials: { apiKey: 'SG.kept', from: 'old@example.com', senderName: 'Old' },
    });
    const editor = await signedIn(t, 'editor');
    const updated = await editor
      .send('put', `/v1/integrations/${created.body._id}`)
      .send({ credentials: { from: 'new@example.com', senderName: '' } });
    expect(updated.status).toBe(200);
    expect(updated.body.credentials).toEqual({ from: 'new@example.com' });
    const byKey = await t.api('get', '/v1/integrations');
    const stored = byKey.body.find((row: { identifier: string }) => row.identifier === 'dashboard-merge');
    expect(stored.credentials).toEqual({ apiKey: 'SG.kept', from: 'new@example.com' });
  });

  it('an API key works as before and wins over a cookie', async () => {
    const viewer = await signedIn(t, 'viewer');
    const res = await t.api('post', '/v2/topics').set('Cookie', viewer.cookie).send({ key: 'by-key' });
    expect(res.status).toBe(201);
    expect((await t.http.get('/v2/topics')).status).toBe(401);
  });
});
