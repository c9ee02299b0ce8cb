import { expect } from '@jest/globals';
import type request from 'supertest';
import { newId, type DashboardRole } from '#common';
import { DashboardUsersService } from '#application';
import type { TestApp } from './test-app.js';
import type { Body } from './untyped-json.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A browser signed in to the dashboard: its cookie, and the CSRF token the login answered. */
export interface DashboardBrowser {
  cookie: string;
  csrfToken: string;
  /** The login's Set-Cookie header, as sent. */
  setCookie: string;
  body: Body;
  /** A request with the cookie, the CSRF token and X-Environment-Id (the test app's Development by default). */
  send(method: Method, path: string, environmentId?: string): request.Test;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** A dashboard user of the test app's organization, made through the service the routes use. */
export async function createDashboardUser(
  t: TestApp,
  role: DashboardRole,
  email = `${role}-${newId().slice(-12)}@example.com`,
): Promise<{ id: string; email: string }> {
  const user = await t.app
    .get(DashboardUsersService)
    .create(t.environment.organizationId, { email, role, password: TEST_PASSWORD });
  return { id: user.id, email: user.email };
}

/** POST /v1/dashboard/session; fails the test unless it answers 201. */
export async function signIn(t: TestApp, email: string, password = TEST_PASSWORD): Promise<DashboardBrowser> {
  const res = await t.http.post('/v1/dashboard/session').send({ email, password });
  expect(res.status).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = setCookie.split(';')[0];
  const csrfToken = String(res.body.csrfToken);
  return {
    cookie,
    csrfToken,
    setCookie,
    body: res.body,
    send: (method, path, environmentId = t.environment.id) =>
      t.http[method](path).set('Cookie', cookie).set('X-CSRF-Token', csrfToken).set('X-Environment-Id', environmentId),
  };
}

/** A user of that role, signed in. */
export async function signedIn(t: TestApp, role: DashboardRole): Promise<DashboardBrowser & { userId: string }> {
  const user = await createDashboardUser(t, role);
  return { ...(await signIn(t, user.email)), userId: user.id };
}
