import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { environments } from '#dal';
import { signedIn } from './support/dashboard.js';
import { postSession, sessionToken, startInboxApp, type InboxApp } from './inbox/inbox-app.js';

describe('PUT /v1/environments/{id} { requireHmac }', () => {
  let app: InboxApp;
  const path = () => `/v1/environments/${app.t.environment.id}`;
  const requireHmacNow = async () =>
    (await app.t.db.select().from(environments).where(eq(environments.id, app.t.environment.id)))[0].requireHmac;
  const notifications = (token: string) =>
    fetch(`${app.url}/v1/inbox/notifications`, { headers: { Authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    app = await startInboxApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('turned on by an admin, ends the inbox sessions started without a subscriberHash and keeps the proven ones', async () => {
    const admin = await signedIn(app.t, 'admin');
    const unproven = await sessionToken(app, 'no-hash');
    const hash = createHmac('sha256', app.t.apiKey).update('with-hash').digest('hex');
    const started = await postSession(app, { subscriber: { subscriberId: 'with-hash' }, subscriberHash: hash });
    const proven = ((await started.json()) as { data: { token: string } }).data.token;
    expect((await notifications(unproven)).status).toBe(200);

    const on = await admin.send('put', path()).send({ requireHmac: true });
    expect(on.status).toBe(200);
    expect(on.body.requireHmac).toBe(true);
    expect(await requireHmacNow()).toBe(true);
    const ended = await notifications(unproven);
    expect(ended.status).toBe(401);
    expect(((await ended.json()) as { message: string }).message).toMatch(/requires a subscriberHash/);
    expect((await notifications(proven)).status).toBe(200);
    expect((await postSession(app, { subscriber: { subscriberId: 'no-hash' } })).status).toBe(401);

    const off = await admin.send('put', path()).send({ requireHmac: false });
    expect(off.body.requireHmac).toBe(false);
    expect((await postSession(app, { subscriber: { subscriberId: 'no-hash' } })).status).toBe(201);
  });

  it('is refused to viewers and editors (403) and leaves the switch as it was', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const session = await signedIn(app.t, role);
      const res = await session.send('put', path()).send({ requireHmac: true });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(`This needs the admin role; you are ${role}`);
    }
    expect(await requireHmacNow()).toBe(false);
  });

  it('answers 422 naming requireHmac for anything but a boolean', async () => {
    const admin = await signedIn(app.t, 'admin');
    for (const requireHmac of ['yes', null, 1]) {
      const res = await admin.send('put', path()).send({ requireHmac });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('requireHmac');
    }
    expect(await requireHmacNow()).toBe(false);
  });

  it('is in the OpenAPI document of the update', async () => {
    const { components } = (await app.t.http.get('/api-docs-json')).body;
    expect(components.schemas.UpdateEnvironmentDto.properties.requireHmac).toMatchObject({ type: 'boolean' });
  });
});
