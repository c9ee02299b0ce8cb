import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DashboardUsersService } from '#application';
import { DashboardSessionRepository, dashboardSessions } from '#dal';
import { eq } from 'drizzle-orm';
import { createDashboardUser, signedIn, signIn, TEST_PASSWORD } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('dashboard sign-in and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs in with a session cookie (httpOnly, SameSite=Strict, no Secure over plain HTTP) and answers the CSRF token and environments', async () => {
    const user = await createDashboardUser(t, 'editor', 'Ada.Lovelace@Example.com');
    const browser = await signIn(t, 'ada.lovelace@example.com');
    expect(browser.setCookie).toMatch(
      /^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(browser.body).toEqual({
      user: { id: user.id, email: 'ada.lovelace@example.com', role: 'editor', createdAt: expect.any(String) },
      session: expect.objectContaining({ id: expect.any(String), current: true, clientAddress: expect.any(String) }),
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      environments: expect.arrayContaining([{ id: t.environment.id, name: 'Development' }]),
    });
    const current = await t.http.get('/v1/dashboard/session').set('Cookie', browser.cookie);
    expect(current.status).toBe(200);
    expect(current.body).toEqual(browser.body);
    // The session table holds the token's hash, never the token.
    const [row] = await t.db.select().from(dashboardSessions).where(eq(dashboardSessions.id, browser.body.session.id));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(browser.cookie).not.toContain(row.tokenHash);
  });

  it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const user = await createDashboardUser(proxied, 'viewer');
      const res = await proxied.http
        .post('/v1/dashboard/session')
        .set('X-Forwarded-Proto', 'https')
        .send({ email: user.email, password: TEST_PASSWORD });
      expect(res.status).toBe(201);
      expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a wrong password and an unknown address alike, with 401 in the error body and no cookie', async () => {
    const user = await createDashboardUser(t, 'viewer');
    for (const body of [
      { email: user.email, password: 'not the password at all' },
      { email: 'nobody@example.com', password: TEST_PASSWORD },
    ]) {
      const res = await t.http.post('/v1/dashboard/session').send(body);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        message: 'Wrong email or password',
        path: '/v1/dashboard/session',
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('answers 422 naming the field for a malformed login, 401 for no session, and never a 500', async () => {
    const missing = await t.http.post('/v1/dashboard/session').send({ email: 'a@example.com' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('password');
    const wrongType = await t.http.post('/v1/dashboard/session').send({ email: ['a'], password: 5 });
    expect(wrongType.status).toBe(422);
    // What another site's form can send: text/plain (no preflight) holding JSON. It is read as text, not credentials.
    const user = await createDashboardUser(t, 'viewer');
    const formPost = await t.http
      .post('/v1/dashboard/session')
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ email: user.email, password: TEST_PASSWORD }));
    expect(formPost.status).toBeGreaterThanOrEqual(400);
    expect(formPost.status).toBeLessThan(500);
    expect(formPost.headers['set-cookie']).toBeUndefined();
    const noSession = await t.http.get('/v1/dashboard/session');
    expect(noSession.status).toBe(401);
    const forged = await t.http.get('/v1/dashboard/session').set('Cookie', 'dashboard_session=forged; other=1');
    expect(forged.status).toBe(401);
    expect(forged.body.message).toMatch(/sign in again/);
  });

  it('refuses a write without the CSRF token, or with another session’s, with 403', async () => {
    const browser = await signedIn(t, 'editor');
    const other = await signedIn(t, 'editor');
    const bare = await t.http
      .post('/v2/topics')
      .set('Cookie', browser.cookie)
      .set('X-Environment-Id', t.environment.id)
      .send({ key: 'csrf-topic' });
    expect(bare.status).toBe(403);
    expect(bare.body).toMatchObject({ statusCode: 403, message: expect.stringMatching(/X-CSRF-Token/) });
    const crossed = await t.http
      .post('/v2/topics')
      .set('Cookie', browser.cookie)
      .set('X-CSRF-Token', other.csrfToken)
      .set('X-Environment-Id', t.environment.id)
      .send({ key: 'csrf-topic' });
    expect(crossed.status).toBe(403);
    const logout = await t.http.delete('/v1/dashboard/session').set('Cookie', browser.cookie);
    expect(logout.status).toBe(403);
    expect((await browser.send('get', '/v2/topics/csrf-topic')).status).toBe(404);
    expect((await browser.send('post', '/v2/topics').send({ key: 'csrf-topic' })).status).toBe(201);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const browser = await signedIn(t, 'viewer');
    const out = await browser.send('delete', '/v1/dashboard/session');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(
      /^dashboard_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/,
    );
    expect((await browser.send('get', '/v1/dashboard/session')).status).toBe(401);
    expect((await browser.send('get', '/v2/topics')).status).toBe(401);
  });

  it('ends a session when it expires (DASHBOARD_SESSION_TTL_MINUTES, 12 hours by default)', async () => {
    const browser = await signedIn(t, 'viewer');
    try {
      t.clock.set(new Date(Date.now() + 11.9 * 3600_000));
      expect((await browser.send('get', '/v2/topics')).status).toBe(200);
      t.clock.set(new Date(Date.now() + 12.1 * 3600_000));
      const expired = await browser.send('get', '/v2/topics');
      expect(expired.status).toBe(401);
      expect(expired.body.message).toMatch(/expired/);
    } finally {
      t.clock.reset();
    }
  });

  it('lists the user’s own sessions and revokes one, which then stops working', async () => {
    const user = await createDashboardUser(t, 'editor');
    const laptop = await signIn(t, user.email);
    const phone = await signIn(t, user.email);
    const stranger = await signedIn(t, 'admin');
    const list = await laptop.send('get', '/v1/dashboard/sessions');
    expect(list.status).toBe(200);
    expect(list.body.map((session: { id: string }) => session.id).sort()).toEqual(
      [laptop.body.session.id, phone.body.session.id].sort(),
    );
    expect(list.body.find((session: { current: boolean }) => session.current).id).toBe(laptop.body.session.id);
    // Another user's session is not one's own to end, even an admin's.
    const foreign = await stranger.send('delete', `/v1/dashboard/sessions/${phone.body.session.id}`);
    expect(foreign.status).toBe(404);
    expect((await laptop.send('delete', '/v1/dashboard/sessions/not-an-id')).status).toBe(404);
    const revoked = await laptop.send('delete', `/v1/dashboard/sessions/${phone.body.session.id}`);
    expect(revoked.status).toBe(204);
    expect((await phone.send('get', '/v2/topics')).status).toBe(401);
    expect((await laptop.send('get', '/v2/topics')).status).toBe(200);
  });

  it('ends every session of a user who is removed, or whose role changes', async () => {
    const admin = await signedIn(t, 'admin');
    const removed = await signedIn(t, 'editor');
    const demoted = await signedIn(t, 'editor');
    expect((await demoted.send('post', '/v2/topics').send({ key: 'before-demotion' })).status).toBe(201);

    const role = await admin.send('patch', `/v1/dashboard/users/${demoted.userId}`).send({ role: 'viewer' });
    expect(role.status).toBe(200);
    expect(role.body).toMatchObject({ id: demoted.userId, role: 'viewer' });
    expect((await demoted.send('get', '/v2/topics')).status).toBe(401);
    const again = await signIn(t, role.body.email);
    expect((await again.send('post', '/v2/topics').send({ key: 'after-demotion' })).status).toBe(403);

    expect((await admin.send('delete', `/v1/dashboard/users/${removed.userId}`)).status).toBe(204);
    expect((await removed.send('get', '/v2/topics')).status).toBe(401);
    expect(await t.app.get(DashboardSessionRepository).listLive(removed.userId, new Date())).toEqual([]);
    const signInAgain = await t.http
      .post('/v1/dashboard/session')
      .send({ email: removed.body.user.email, password: TEST_PASSWORD });
    expect(signInAgain.status).toBe(401);
  });

  it('changes the password: the old one stops working and the other sessions end', async () => {
    const user = await createDashboardUser(t, 'viewer');
    const here = await signIn(t, user.email);
    const elsewhere = await signIn(t, user.email);
    const wrong = await here
      .send('put', '/v1/dashboard/session/password')
      .send({ currentPassword: 'nope', newPassword: 'a new long passphrase' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toHaveProperty('currentPassword');
    const short = await here
      .send('put', '/v1/dashboard/session/password')
      .send({ currentPassword: TEST_PASSWORD, newPassword: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toHaveProperty('newPassword');
    const changed = await here
      .send('put', '/v1/dashboard/session/password')
      .send({ currentPassword: TEST_PASSWORD, newPassword: 'a new long passphrase' });
    expect(changed.status).toBe(204);
    expect((await here.send('get', '/v1/dashboard/session')).status).toBe(200);
    expect((await elsewhere.send('get', '/v1/dashboard/session')).status).toBe(401);
    expect(
      (await t.http.post('/v1/dashboard/session').send({ email: user.email, password: TEST_PASSWORD })).status,
    ).toBe(401);
    await signIn(t, user.email, 'a new long passphrase');
  });
});

describe('dashboard users (admin only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets an admin create, list, re-role and remove users', async () => {
    const admin = await signedIn(t, 'admin');
    const created = await admin
      .send('post', '/v1/dashboard/users')
      .send({ email: 'New.Person@example.com', password: TEST_PASSWORD, role: 'viewer' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      email: 'new.person@example.com',
      role: 'viewer',
      createdAt: expect.any(String),
    });
    expect(created.body).not.toHaveProperty('passwordHash');
    await signIn(t, 'new.person@example.com');
    const list = await admin.send('get', '/v1/dashboard/users');
    expect(list.status).toBe(200);
    expect(list.body.map((user: { email: string }) => user.email)).toContain('new.person@example.com');
    const taken = await admin
      .send('post', '/v1/dashboard/users')
      .send({ email: 'new.person@example.com', password: TEST_PASSWORD, role: 'admin' });
    expect(taken.status).toBe(409);
    expect(
      (await admin.send('patch', `/v1/dashboard/users/${created.body.id}`).send({ role: 'editor' })).body.role,
    ).toBe('editor');
    expect((await admin.send('delete', `/v1/dashboard/users/${created.body.id}`)).status).toBe(204);
    expect((await admin.send('delete', `/v1/dashboard/users/${created.body.id}`)).status).toBe(404);
    // The same role again changes nothing, so the sessions stay.
    expect((await admin.send('patch', `/v1/dashboard/users/${admin.userId}`).send({ role: 'admin' })).status).toBe(200);
    expect((await admin.send('get', '/v1/dashboard/session')).status).toBe(200);
  });

  it('answers 422 for a bad email, role or password, and 404 for an unknown user', async () => {
    const admin = await signedIn(t, 'admin');
    const bad = await admin
      .send('post', '/v1/dashboard/users')
      .send({ email: 'a@b, c@d', password: 'short', role: 'owner' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'password', 'role']);
    expect((await admin.send('patch', '/v1/dashboard/users/nope').send({ role: 'viewer' })).status).toBe(404);
    expect(
      (await admin.send('patch', '/v1/dashboard/users/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b').send({ role: 'viewer' }))
        .status,
    ).toBe(404);
  });

  it('keeps the last admin: it cannot be removed or demoted (409)', async () => {
    const solo = await startTestApp();
    try {
      const admin = await signedIn(solo, 'admin');
      expect((await admin.send('patch', `/v1/dashboard/users/${admin.userId}`).send({ role: 'editor' })).status).toBe(
        409,
      );
      expect((await admin.send('delete', `/v1/dashboard/users/${admin.userId}`)).status).toBe(409);
    } finally {
      await solo.close();
    }
  });

  it('refuses editors and viewers (403) and API keys (403)', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const browser = await signedIn(t, role);
      expect((await browser.send('get', '/v1/dashboard/users')).status).toBe(403);
      const create = await browser
        .send('post', '/v1/dashboard/users')
        .send({ email: `by-${role}@example.com`, password: TEST_PASSWORD, role: 'admin' });
      expect(create.status).toBe(403);
      expect(create.body.message).toBe(`This needs the admin role; you are ${role}`);
    }
    const byKey = await t.api('get', '/v1/dashboard/users');
    expect(byKey.status).toBe(403);
    expect((await t.api('get', '/v1/dashboard/session')).status).toBe(403);
  });

  it('makes the first admin from the one-time setup link, once', async () => {
    const fresh = await startTestApp();
    try {
      const users = fresh.app.get(DashboardUsersService);
      const token = (await users.issueSetupToken())!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const wrong = await fresh.http
        .post('/v1/dashboard/setup')
        .send({ token: 'x'.repeat(43), email: 'root@example.com', password: TEST_PASSWORD });
      expect(wrong.status).toBe(403);
      const setup = await fresh.http
        .post('/v1/dashboard/setup')
        .send({ token, email: 'root@example.com', password: TEST_PASSWORD });
      expect(setup.status).toBe(201);
      expect(setup.body).toMatchObject({ email: 'root@example.com', role: 'admin' });
      const reused = await fresh.http
        .post('/v1/dashboard/setup')
        .send({ token, email: 'second@example.com', password: TEST_PASSWORD });
      expect(reused.status).toBe(403);
      expect(await users.issueSetupToken()).toBeUndefined();
      await signIn(fresh, 'root@example.com');
    } finally {
      await fresh.close();
    }
  });
});

describe('dashboard login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { DASHBOARD_LOGIN_ATTEMPTS_PER_ACCOUNT: '3', DASHBOARD_LOGIN_ATTEMPTS_PER_ADDRESS: '6' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with Retry-After once an account, then an address, has used its attempts', async () => {
    const user = await createDashboardUser(t, 'viewer');
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.http.post('/v1/dashboard/session').send({ email: user.email, password: 'wrong password!' })).status,
      ).toBe(401);
    }
    // The right password too: the account's budget is spent.
    const limited = await t.http.post('/v1/dashboard/session').send({ email: user.email, password: TEST_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      message: expect.stringMatching(/for this account/),
      path: '/v1/dashboard/session',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other accounts from this address have the address's remaining attempts (6 − 4 = 2).
    const other = await createDashboardUser(t, 'viewer');
    await signIn(t, other.email);
    expect(
      (await t.http.post('/v1/dashboard/session').send({ email: 'x@example.com', password: 'whatever it is' })).status,
    ).toBe(401);
    const byAddress = await t.http.post('/v1/dashboard/session').send({ email: other.email, password: TEST_PASSWORD });
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.message).toMatch(/from this address/);
  });
});
