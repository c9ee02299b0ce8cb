import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdjustableClock, loadConfig } from '#common';
import { EnvironmentRepository } from '#dal';
import { SessionTokens } from '#api/inbox/session-token.js';
import { TEST_ENCRYPTION_KEY } from '../support/test-app.js';
import { openInbox, postSession, sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

const hmac = (key: string, subscriberId: string) => createHmac('sha256', key).update(subscriberId).digest('hex');

describe('inbox authentication: HMAC, session tokens, unsupported routes', () => {
  let app: InboxApp;
  let environments: EnvironmentRepository;

  const session = (body: Record<string, unknown>) => postSession(app, body);
  const tokenOf = (subscriberId: string) => sessionToken(app, subscriberId);

  const list = (authorization?: string) =>
    fetch(`${app.url}/v1/inbox/notifications`, { headers: authorization ? { Authorization: authorization } : {} });

  async function expect401(res: Response, message: RegExp): Promise<void> {
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      statusCode: 401,
      message: expect.stringMatching(message),
      path: expect.any(String),
    });
  }

  beforeAll(async () => {
    app = await startInboxApp();
    environments = app.t.app.get(EnvironmentRepository);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('HMAC', () => {
    afterAll(async () => {
      await environments.setRequireHmac(app.t.environment.id, false);
    });

    it('off: a session needs no hash', async () => {
      expect((await session({ subscriber: { subscriberId: 'h-free' } })).status).toBe(201);
    });

    it("required by the environment: the right hash (made with the environment's API key) opens a session, a wrong or missing one is a 401", async () => {
      await environments.setRequireHmac(app.t.environment.id, true);
      const { session: ok } = await openInbox(
        app,
        { subscriberId: 'h-ok' },
        { subscriberHash: hmac(app.t.apiKey, 'h-ok') },
      );
      expect(ok.error).toBeUndefined();
      expect(ok.data).toMatchObject({ token: expect.any(String) });
      // A proven subscriberId may update its subscriber's fields.
      const { session: update } = await openInbox(
        app,
        { subscriberId: 'h-ok', firstName: 'Grace' },
        { subscriberHash: hmac(app.t.apiKey, 'h-ok') },
      );
      expect(update.error).toBeUndefined();
      expect((await app.t.api('get', '/v2/subscribers/h-ok')).body).toMatchObject({ firstName: 'Grace' });
      await expect401(
        await session({ subscriber: { subscriberId: 'h-bad' }, subscriberHash: hmac(app.t.apiKey, 'h-other') }),
        /Invalid subscriberHash/,
      );
      await expect401(
        await session({ subscriber: { subscriberId: 'h-bad' }, subscriberHash: 'zz' }),
        /Invalid subscriberHash/,
      );
      await expect401(await session({ subscriber: { subscriberId: 'h-bad' } }), /requires a subscriberHash/);
      // A refused session writes nothing.
      expect((await app.t.api('get', '/v2/subscribers/h-bad')).status).toBe(404);
      const { session: viaClient } = await openInbox(app, { subscriberId: 'h-bad' });
      expect(viaClient.error).toBeDefined();
      expect(viaClient.data).toBeUndefined();
    });

    it('required by the in_app integration (credentials.hmac), the way Novu switches it on', async () => {
      await environments.setRequireHmac(app.t.environment.id, false);
      const created = await app.t
        .api('post', '/v1/integrations')
        .send({ providerId: 'novu', channel: 'in_app', credentials: { hmac: true }, active: true });
      expect(created.status).toBe(201);
      await expect401(await session({ subscriber: { subscriberId: 'h-int' } }), /requires a subscriberHash/);
      expect(
        (await session({ subscriber: { subscriberId: 'h-int' }, subscriberHash: hmac(app.t.apiKey, 'h-int') })).status,
      ).toBe(201);
      const id = created.body._id as string;
      expect((await app.t.api('put', `/v1/integrations/${id}`).send({ credentials: { hmac: false } })).status).toBe(
        200,
      );
      expect((await session({ subscriber: { subscriberId: 'h-int' } })).status).toBe(201);
    });

    it('required, but no API key of the environment can be recovered: 401 that says why', async () => {
      const foreign = await app.t.createForeignKey();
      await environments.setRequireHmac(foreign.environment.id, true);
      const res = await session({
        applicationIdentifier: foreign.environment.identifier,
        subscriber: { subscriberId: 'h-x' },
        subscriberHash: hmac(foreign.apiKey, 'h-x'),
      });
      await expect401(res, /none of its API keys can be recovered/);
    });
  });

  describe('session tokens', () => {
    it('missing, wrong scheme, malformed, tampered or foreign-signed tokens are 401 in the error body', async () => {
      const token = await tokenOf('tok-1');
      expect((await list(`Bearer ${token}`)).status).toBe(200);
      await expect401(await list(), /Missing authorization/);
      await expect401(await list(`ApiKey ${app.t.apiKey}`), /Invalid authentication scheme/);
      await expect401(await list('Bearer not-a-token'), /Invalid inbox session token/);
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sid: 'someone-else' })).toString('base64url');
      await expect401(await list(`Bearer ${header}.${forged}.${signature}`), /Invalid inbox session token/);
      const otherDeployment = new SessionTokens(
        loadConfig({ ENCRYPTION_KEY: 'b'.repeat(64) }),
        new AdjustableClock(),
      ).issue({
        environmentId: app.t.environment.id,
        organizationId: app.t.environment.organizationId,
        subscriberRowId: claims.sub as string,
        subscriberId: 'tok-1',
        generation: 0,
        hashProven: false,
        contextKeys: [],
      });
      await expect401(await list(`Bearer ${otherDeployment}`), /Invalid inbox session token/);
      // The same claims signed with this deployment's key are accepted: the test above fails for the key alone.
      const sameDeployment = new SessionTokens(
        loadConfig({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }),
        new AdjustableClock(),
      );
      const resigned = sameDeployment.issue({
        environmentId: app.t.environment.id,
        organizationId: app.t.environment.organizationId,
        subscriberRowId: claims.sub as string,
        subscriberId: 'tok-1',
        generation: 0,
        hashProven: false,
        contextKeys: [],
      });
      expect((await list(`Bearer ${resigned}`)).status).toBe(200);
    });

    it('a token expires after 24 hours', async () => {
      const token = await tokenOf('tok-2');
      expect((await list(`Bearer ${token}`)).status).toBe(200);
      app.t.clock.set(new Date(Date.now() + 24 * 3600_000 + 1000));
      try {
        await expect401(await list(`Bearer ${token}`), /expired/);
      } finally {
        app.t.clock.reset();
      }
      expect((await list(`Bearer ${token}`)).status).toBe(200);
    });

    it("a deleted subscriber's token is refused", async () => {
      const token = await tokenOf('tok-3');
      expect((await app.t.api('delete', '/v2/subscribers/tok-3')).status).toBe(200);
      await expect401(await list(`Bearer ${token}`), /no longer exists/);
    });
  });

  it('hostile or malformed input with a valid session is a 4xx in the error body, never a 5xx', async () => {
    const token = await tokenOf('tok-5');
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${app.url}/v1/inbox${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    const id = '0190a1b2-0000-7000-8000-000000000009';
    const cases: [string, string, unknown, number][] = [
      ['GET', '/notifications?limit=abc', undefined, 422],
      ['GET', '/notifications?limit=1000', undefined, 422],
      ['GET', '/notifications?data=%7Bnot-json', undefined, 422],
      ['GET', '/notifications?after=nope', undefined, 422],
      ['GET', '/notifications?createdGte=99999999999999999999', undefined, 422],
      ['GET', '/notifications/count', undefined, 422],
      ['GET', '/notifications/count?filters=%5B1%5D', undefined, 422],
      ['GET', '/notifications/count?filters=%5B%7B%22read%22%3A%22yes%22%7D%5D', undefined, 422],
      ['PATCH', '/notifications/not-a-uuid/read', undefined, 422],
      ['PATCH', `/notifications/${id}/read`, undefined, 404],
      ['PATCH', `/notifications/${id}/snooze`, { snoozeUntil: { toString: 1 } }, 422],
      ['PATCH', `/notifications/${id}/snooze`, { snoozeUntil: 'tomorrow' }, 422],
      ['PATCH', `/notifications/${id}/complete`, { actionType: ['primary'] }, 422],
      ['PATCH', `/notifications/${id}/complete`, '{"actionType":', 400],
      ['POST', '/notifications/seen', { notificationIds: 'x' }, 422],
      ['POST', '/notifications/read', { tags: [1], data: '{"a":' }, 422],
      ['PATCH', '/preferences', { email: 'no' }, 422],
      ['PATCH', '/preferences', { schedule: { isEnabled: true, weeklySchedule: { funday: {} } } }, 422],
      ['PATCH', '/preferences/bulk', { preferences: 'all' }, 422],
      ['PATCH', '/preferences/bulk', { preferences: [{ workflowId: 'x', subscriptionIdentifier: 's' }] }, 400],
      ['GET', '/preferences?criticality=some', undefined, 422],
    ];
    const answers = [];
    for (const [method, path, body] of cases) answers.push((await call(method, path, body)).status);
    expect(answers).toEqual(cases.map(([, , , status]) => status));
    const sample = await call('GET', '/notifications?limit=abc');
    expect(await sample.json()).toMatchObject({ statusCode: 422, errors: { limit: expect.any(Object) } });
  });

  it('routes @novu/js has and this service does not serve: 404 in the error body, never a 5xx', async () => {
    const token = await tokenOf('tok-4');
    const calls: [string, string][] = [
      ['POST', '/v1/inbox/chat/oauth'],
      ['GET', '/v1/inbox/channel-connections'],
      ['POST', '/v1/inbox/channel-endpoints/link'],
      ['POST', '/v1/inbox/events'],
    ];
    for (const [method, path] of calls) {
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: 404, message: expect.stringContaining('not supported') });
    }
  });
});
