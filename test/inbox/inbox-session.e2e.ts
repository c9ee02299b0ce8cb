import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInboxWorkflow, deliver, openInbox, postSession, startInboxApp, type InboxApp } from './inbox-app.js';

describe('inbox session: POST /v1/inbox/session through @novu/js', () => {
  let app: InboxApp;

  beforeAll(async () => {
    app = await startInboxApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('starts a session, creating the subscriber with the fields given, and answers the counts and flags', async () => {
    const { session } = await openInbox(app, { subscriberId: 'ses-1', firstName: 'Ada', email: 'ada@example.com' });
    expect(session.error).toBeUndefined();
    expect(session.data).toEqual({
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      totalUnreadCount: 0,
      unreadCount: { total: 0, severity: { high: 0, medium: 0, low: 0, none: 0 } },
      removeNovuBranding: true,
      isDevelopmentMode: true,
      maxSnoozeDurationHours: 2160,
      applicationIdentifier: app.applicationIdentifier,
      contextKeys: [],
    });
    const stored = await app.t.api('get', '/v2/subscribers/ses-1');
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ subscriberId: 'ses-1', firstName: 'Ada', email: 'ada@example.com' });

    const workflow = await createInboxWorkflow(app.t, 'ses-wf');
    await deliver(app.t, workflow.identifier, 'ses-1', 1);
    await deliver(app.t, workflow.identifier, 'ses-1', 2);
    // Without HMAC the browser is not trusted with an existing subscriber: its fields stay as they were.
    const again = await openInbox(app, { subscriberId: 'ses-1', lastName: 'Lovelace', email: 'eve@example.com' });
    expect(again.session.data).toMatchObject({ totalUnreadCount: 2, unreadCount: { total: 2, severity: { none: 2 } } });
    const unchanged = await app.t.api('get', '/v2/subscribers/ses-1');
    expect(unchanged.body).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
    expect(unchanged.body.lastName ?? null).toBeNull();
  });

  it('refuses an unknown applicationIdentifier (400) and an invalid subscriber (422), in the error body', async () => {
    const unknown = await openInbox(app, { subscriberId: 'ses-2' }, { applicationIdentifier: 'nope' });
    expect(unknown.session.error).toBeDefined();
    const raw = await postSession(app, { applicationIdentifier: 'nope', subscriber: { subscriberId: 'ses-2' } });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('applicationIdentifier'),
    });
    const invalid = await postSession(app, { subscriber: { subscriberId: 'ses-2', email: 'not-an-email' } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ statusCode: 422, errors: expect.any(Object) });
    expect((await app.t.api('get', '/v2/subscribers/ses-2')).status).toBe(404);
    const none = await postSession(app, {});
    expect(none.status).toBe(422);
  });
});
