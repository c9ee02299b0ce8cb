import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

const PREFLIGHT_HEADERS = 'authorization, content-type, novu-api-version, novu-client-version';

function preflight(app: InboxApp, path: string, origin: string): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'PATCH',
      'Access-Control-Request-Headers': PREFLIGHT_HEADERS,
    },
  });
}

describe('inbox routes in browsers: CORS and the per-subscriber rate limit', () => {
  describe('default origins (*)', () => {
    let app: InboxApp;
    beforeAll(async () => {
      app = await startInboxApp({ env: { RATE_LIMIT_INBOX_BURST: '5', RATE_LIMIT_INBOX_PER_SECOND: '1' } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('answers an inbox preflight with the methods and the headers @novu/js sends', async () => {
      const res = await preflight(app, '/v1/inbox/notifications/abc/read', 'https://shop.example');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const header of [...PREFLIGHT_HEADERS.split(', '), 'novu-application-identifier'])
        expect(allowed).toContain(header);
      const session = await fetch(`${app.url}/v1/inbox/session`, {
        method: 'POST',
        headers: { Origin: 'https://shop.example', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          applicationIdentifier: app.applicationIdentifier,
          subscriber: { subscriberId: 'cors-1' },
        }),
      });
      expect(session.status).toBe(201);
      expect(session.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('API-key routes send no CORS headers and refuse preflights', async () => {
      const res = await preflight(app, '/v2/subscribers', 'https://shop.example');
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const get = await fetch(`${app.url}/v2/subscribers`, {
        headers: { Origin: 'https://shop.example', Authorization: `ApiKey ${app.t.apiKey}` },
      });
      expect(get.status).toBe(200);
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('limits each subscriber on its own: 429 with Retry-After in the error body, others unaffected', async () => {
      const busy = await sessionToken(app, 'rl-busy');
      const calm = await sessionToken(app, 'rl-calm');
      const call = (token: string) =>
        fetch(`${app.url}/v1/inbox/notifications`, { headers: { Authorization: `Bearer ${token}` } });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) statuses.push((await call(busy)).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toContain(429);
      const limited = await call(busy);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toMatchObject({ statusCode: 429, message: expect.stringContaining('retry after') });
      expect((await call(calm)).status).toBe(200);
      // API-key routes keep their own, environment-wide buckets.
      expect((await app.t.api('get', '/v2/subscribers/rl-busy/notifications')).status).toBe(200);
    });
  });

  describe('INBOX_ALLOWED_ORIGINS set', () => {
    let app: InboxApp;
    beforeAll(async () => {
      app = await startInboxApp({
        env: {
          INBOX_ALLOWED_ORIGINS: 'https://app.example',
          RATE_LIMIT_INBOX_SESSION_BURST: '3',
          RATE_LIMIT_INBOX_SESSION_PER_SECOND: '1',
        },
      });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('echoes an allowed origin and names none for another one', async () => {
      const allowed = await preflight(app, '/v1/inbox/session', 'https://app.example');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(allowed.headers.get('vary')).toContain('Origin');
      const other = await preflight(app, '/v1/inbox/session', 'https://evil.example');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('limits session starts per environment: 429 beyond the burst, and the refused subscriber is not created', async () => {
      const start = (subscriberId: string) =>
        fetch(`${app.url}/v1/inbox/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ applicationIdentifier: app.applicationIdentifier, subscriber: { subscriberId } }),
        });
      // All at once: the bucket refills a token a second, which a slow machine could grant between sequential calls.
      const ids = ['s-1', 's-2', 's-3', 's-4', 's-5'];
      const answers = await Promise.all(ids.map(start));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 429, 429]);
      const refused = answers.find((answer) => answer.status === 429)!;
      expect(await refused.json()).toMatchObject({
        statusCode: 429,
        message: expect.stringContaining('this environment'),
      });
      for (const [index, id] of ids.entries()) {
        const stored = await app.t.api('get', `/v2/subscribers/${id}`);
        expect(stored.status).toBe(answers[index].status === 201 ? 200 : 404);
      }
    });
  });
});
