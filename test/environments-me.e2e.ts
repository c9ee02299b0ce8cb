import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('GET /v1/environments/me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the key's environment in Novu's shape, with its public identifier, HMAC off, no inbox topic open and the default retention", async () => {
    const production = await t.createKeyFor('Production');
    const res = await t.api('get', '/v1/environments/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: t.environment.id,
      name: 'Development',
      _organizationId: t.environment.organizationId,
      identifier: expect.any(String),
      type: 'dev',
      _parentId: production.environment.id,
      requireHmac: false,
      inboxTopics: { allow: [], maxPerSubscriber: 20 },
      retention: { activityDays: 30, messagesDays: 90, activityDaysOverride: null, messagesDaysOverride: null },
      defaultLocale: 'en_US',
    });
    expect(res.body.identifier).toBe(t.environment.identifier);
    expect(res.body.identifier).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('each environment has its own identifier', async () => {
    const production = await t.createKeyFor('Production');
    const foreign = await t.createForeignKey();
    const prod = await t.api('get', '/v1/environments/me', production.apiKey);
    const other = await t.api('get', '/v1/environments/me', foreign.apiKey);
    expect(prod.body).toMatchObject({ _id: production.environment.id, name: 'Production', type: 'prod' });
    const identifiers = new Set([t.environment.identifier, prod.body.identifier, other.body.identifier]);
    expect(identifiers.size).toBe(3);
  });

  it('needs an API key', async () => {
    const res = await t.http.get('/v1/environments/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, path: '/v1/environments/me' });
  });
});
