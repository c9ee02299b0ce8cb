import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EnvironmentRepository } from '#dal';
import { createSubscriber } from './support/builders.js';
import { signedIn } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** POST /v1/dashboard/inbox-preview/{subscriberId}: the hash the dashboard's Inbox preview starts its session with. */
describe('the inbox preview signature', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await createSubscriber(t, { subscriberId: 'preview-reader' });
  });
  afterAll(() => t.close());

  it("is the subscriber's HMAC under the environment's key, and opens an inbox where HMAC is required", async () => {
    const editor = await signedIn(t, 'editor');
    const res = await editor.send('post', '/v1/dashboard/inbox-preview/preview-reader');
    expect(res.status).toBe(200);
    const expected = createHmac('sha256', t.apiKey).update('preview-reader').digest('hex');
    expect(res.body).toEqual({ subscriberHash: expected });

    const environments = t.app.get(EnvironmentRepository);
    await environments.setRequireHmac(t.environment.id, true);
    try {
      const me = await t.api('get', '/v1/environments/me');
      const session = await t.http.post('/v1/inbox/session').send({
        applicationIdentifier: me.body.identifier,
        subscriber: { subscriberId: 'preview-reader' },
        subscriberHash: res.body.subscriberHash,
      });
      expect(session.status).toBe(201);
    } finally {
      await environments.setRequireHmac(t.environment.id, false);
    }
  });

  it('is refused to a viewer, and to nobody signed in', async () => {
    const viewer = await signedIn(t, 'viewer');
    const refused = await viewer.send('post', '/v1/dashboard/inbox-preview/preview-reader');
    expect(refused.status).toBe(403);
    expect(refused.body.subscriberHash).toBeUndefined();
    expect((await t.http.post('/v1/dashboard/inbox-preview/preview-reader')).status).toBe(401);
  });

  it("answers 404 for a subscriber the environment does not have, another environment's included", async () => {
    const editor = await signedIn(t, 'editor');
    const unknown = await editor.send('post', '/v1/dashboard/inbox-preview/nobody-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('nobody-here');
    expect(unknown.body.subscriberHash).toBeUndefined();
    const foreign = await t.createForeignKey();
    const elsewhere = await t.http
      .post('/v1/dashboard/inbox-preview/preview-reader')
      .set('Authorization', `ApiKey ${foreign.apiKey}`);
    expect(elsewhere.status).toBe(404);
  });
});
