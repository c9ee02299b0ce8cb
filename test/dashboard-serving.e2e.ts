import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The app's hashed script, of those index.html loads (the first-requests script comes before it). */
function scriptPath(html: string): string {
  const paths = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]);
  const path = paths.find((one) => /^\/dashboard\/assets\/index-[\w-]+\.js$/.test(one));
  expect([paths, path]).toEqual([paths, expect.any(String)]);
  return path!;
}

describe('the dashboard’s files', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers /dashboard and every path below it with the app’s page, checked on every load', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/activity', '/dashboard/activity/some-id?page=2']) {
      const res = await t.http.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.text).toContain('<div id="root"></div>');
    }
  });

  it('serves the hashed assets for a year, compressed at build time, and 404s a missing one', async () => {
    const script = scriptPath((await t.http.get('/dashboard')).text);
    const plain = await t.http.get(script).set('Accept-Encoding', 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/^(?:application|text)\/javascript/);
    const gzipped = await t.http.get(script).set('Accept-Encoding', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(Number(gzipped.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 2);

    const missing = await t.http.get('/dashboard/assets/index-missing.js');
    expect(missing.status).toBe(404);
    expect(missing.body.statusCode).toBe(404);
  });

  it('leaves the API’s own routes to the API', async () => {
    const res = await t.http.get('/v1/dashboard/session');
    expect(res.status).toBe(401);
  });
});

describe('DASHBOARD_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { DASHBOARD_ENABLED: 'false' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('serves none of the dashboard', async () => {
    for (const path of ['/dashboard', '/dashboard/activity', '/dashboard/assets/index.js']) {
      const res = await t.http.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    // The API and its dashboard sessions stay: the browser app is one client of them.
    expect((await t.http.get('/v1/dashboard/session')).status).toBe(401);
  });
});
