import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '#common';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { seededParam, seedResources, type SeededResources } from './support/seed.js';
import { TableChecksum } from './support/table-checksum.js';

interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
}

/** A valid body per route, so the request passes validation and reaches the lookup. */
function validBody(route: Route, other: SeededResources): Record<string, unknown> | undefined {
  const bodies: Record<string, Record<string, unknown>> = {
    'patch /v1/tenants/{identifier}': { name: 'Renamed' },
    'put /v1/integrations/{integrationId}': { name: 'Renamed' },
    'put /v1/workflows/{workflowId}': { name: 'Renamed', steps: [{ template: { type: 'in_app', content: 'x' } }] },
    'put /v1/workflows/{workflowId}/status': { active: false },
    'patch /v2/subscribers/{subscriberId}': { firstName: 'Renamed' },
    'patch /v1/subscribers/{subscriberId}/credentials': {
      providerId: 'slack',
      credentials: { webhookUrl: 'https://example.com/hook' },
    },
    'put /v1/subscribers/{subscriberId}/credentials': {
      providerId: 'slack',
      credentials: { webhookUrl: 'https://example.com/hook' },
    },
    'patch /v2/topics/{key}': { name: 'Renamed' },
    'patch /v2/contexts/{type}/{id}': { data: { renamed: true } },
    'patch /v1/subscribers/{subscriberId}/online-status': { isOnline: true },
    'post /v1/subscribers/{subscriberId}/messages/mark-as': { messageId: other.messageId, markAs: 'read' },
    'post /v1/subscribers/{subscriberId}/messages/mark-all': { markAs: 'read' },
    'post /v1/subscribers/{subscriberId}/messages/{messageId}/actions/{type}': { status: 'done' },
    'post /v2/subscribers/{subscriberId}/notifications/seen': { notificationIds: [other.messageId] },
    'patch /v2/subscribers/{subscriberId}/notifications/{notificationId}/snooze': {
      snoozeUntil: new Date(Date.now() + 3_600_000).toISOString(),
    },
    'patch /v2/subscribers/{subscriberId}/preferences': { channels: { email: false } },
    'post /v2/topics/{key}/subscriptions': { subscriptions: [other.subscriberId] },
    'delete /v2/topics/{key}/subscriptions': { subscriptions: [other.subscriberId] },
  };
  return bodies[`${route.method} ${route.path}`];
}

/** A body with the ids and keys of either request replaced, to compare two answers. */
function normalise(body: unknown, other: SeededResources, fresh: string): string {
  let text = JSON.stringify(body ?? null).replace(/"timestamp":"[^"]*"/g, '');
  for (const id of [...identifiers(other), fresh]) text = text.split(id).join('<id>');
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
}

/** Every id or key of the other environment, as it could appear in a response. */
const identifiers = (seeded: SeededResources) => [
  seeded.subscriberId,
  seeded.workflowId,
  seeded.workflowIdentifier,
  seeded.topicKey,
  seeded.tenantIdentifier,
  seeded.integrationId,
  seeded.messageId,
  seeded.transactionId,
  seeded.layoutId,
  seeded.variableKey,
  seeded.environmentId,
  seeded.contextId,
];

/**
 * Routes that act on the key's organization rather than its environment: the environments routes (any
 * key may list, compare and publish its organization's environments, see docs/environments.md) and the
 * environment variables (one key with a value per environment, as in Novu). Another environment of the
 * same organization is reachable there by design; another organization's never is.
 */
const organizationScoped = (route: Route) =>
  /^\/v[12]\/environments\/\{/.test(route.path) || route.path.startsWith('/v1/environment-variables/');

/** Scenario 6: a key of environment A never reaches environment B's data. */
describe('isolation between environments', () => {
  let t: TestApp;
  let routes: Route[];
  const others: Record<string, { apiKey: string; seeded: SeededResources }> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api', RATE_LIMIT_ENABLED: 'false' } });
    await seedResources(t, t.apiKey, 'own');
    const production = await t.createKeyFor('Production');
    const foreign = await t.createForeignKey();
    others['Production of the same organization'] = {
      apiKey: production.apiKey,
      seeded: await seedResources(t, production.apiKey, 'prod'),
    };
    others['another organization'] = {
      apiKey: foreign.apiKey,
      seeded: await seedResources(t, foreign.apiKey, 'foreign'),
    };
    const document = (await t.http.get('/api-docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({ method: method as Route['method'], path })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['Production of the same organization', 'another organization'])(
    'every route naming a resource of %s answers 404 and changes nothing',
    async (name) => {
      const other = others[name].seeded;
      const checksum = await TableChecksum.create(t.runtime.database.pool);
      const before = await checksum.take();
      const leaks: string[] = [];
      // Adding subscribers to an unknown topic key creates that topic in the caller's environment
      // (Novu's behaviour): it runs last so it cannot change what the other routes see.
      const creates = (route: Route) => route.method === 'post' && route.path === '/v2/topics/{key}/subscriptions';
      // The dashboard's own routes (its users, its sessions) take a dashboard session, never an API key
      // (403): dashboard-accounts.e2e covers them.
      const withParams = routes
        .filter((route) => route.path.includes('{') && !route.path.startsWith('/v1/dashboard/'))
        .filter((route) => name === 'another organization' || !organizationScoped(route))
        .sort((a, b) => Number(creates(a)) - Number(creates(b)));
      expect(withParams.length).toBeGreaterThanOrEqual(20);
      const fresh = `never-${randomBytes(4).toString('hex')}`;
      for (const route of withParams) {
        const send = async (value: (param: string) => string) => {
          const url = route.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(value(param)));
          const body = validBody(route, other);
          return { url, res: body ? await t.api(route.method, url).send(body) : await t.api(route.method, url) };
        };
        // The answer for the other environment's resource must be the answer for one that never existed.
        const { url, res } = await send((param) => seededParam(param, other));
        const unknown = (
          await send((param) =>
            param.endsWith('Id') && param !== 'subscriberId' && param !== 'transactionId' ? newId() : fresh,
          )
        ).res;
        const same =
          res.status === unknown.status &&
          (res.status === 404 || normalise(res.body, other, fresh) === normalise(unknown.body, other, fresh));
        if (res.status !== 404 && !same)
          leaks.push(
            `${route.method.toUpperCase()} ${url} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)} (unknown: ${unknown.status})`,
          );
        if (creates(route)) continue;
        const changed = TableChecksum.changed(before, await checksum.take());
        if (changed.length) leaks.push(`${route.method.toUpperCase()} ${url} changed ${changed.join(', ')}`);
      }
      expect(leaks).toEqual([]);

      // The owner still sees its resources: the 404s above were isolation, not missing data.
      const owner = others[name];
      expect((await t.api('get', `/v2/subscribers/${other.subscriberId}`, owner.apiKey)).status).toBe(200);
      expect((await t.api('get', `/v1/workflows/${other.workflowId}`, owner.apiKey)).status).toBe(200);
    },
  );

  it.each(['Production of the same organization', 'another organization'])(
    'no list or filter shows a resource of %s',
    async (name) => {
      const other = others[name].seeded;
      const lists = [
        '/v1/tenants',
        '/v1/integrations',
        '/v1/workflows',
        `/v1/workflows?query=${other.workflowIdentifier}`,
        '/v2/subscribers',
        `/v2/subscribers?subscriberId=${other.subscriberId}`,
        '/v2/topics',
        `/v2/topics?key=${other.topicKey}`,
        '/v1/messages',
        `/v1/messages?subscriberId=${other.subscriberId}`,
        `/v1/messages?transactionId=${other.transactionId}`,
        '/v1/notifications',
        `/v1/notifications?transactionId=${other.transactionId}`,
        `/v1/notifications?subscriberIds=${other.subscriberId}`,
        `/v1/notifications?topicKey=${other.topicKey}`,
        // The organization's environments are listed by design; another organization's never.
        ...(name === 'another organization' ? ['/v1/environments'] : []),
      ];
      const leaks: string[] = [];
      for (const path of lists) {
        const res = await t.api('get', path);
        expect(res.status).toBe(200);
        const text = JSON.stringify(res.body);
        // A topic key is only a name: the subscription route above created a topic of that key in A.
        const leaked = identifiers(other).filter((id) => id !== other.topicKey && text.includes(id));
        if (leaked.length) leaks.push(`${path} shows ${leaked.join(', ')}`);
      }
      expect(leaks).toEqual([]);
    },
  );

  it('the active-integrations list covers the organization and nothing outside it', async () => {
    const res = await t.api('get', '/v1/integrations/active');
    expect(res.status).toBe(200);
    const ids = (res.body as { _id: string; _organizationId: string }[]).map((integration) => integration._id);
    expect(ids).toContain(others['Production of the same organization'].seeded.integrationId);
    expect(ids).not.toContain(others['another organization'].seeded.integrationId);
    expect(
      new Set((res.body as { _organizationId: string }[]).map((integration) => integration._organizationId)),
    ).toEqual(new Set([t.environment.organizationId]));
  });
});
