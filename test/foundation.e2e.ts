import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

describe('foundation: auth, errors, health, queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('authentication', () => {
    it('rejects a request without the header', async () => {
      const res = await t.http.get('/v1/tenants');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        message: 'Missing authorization header',
        error: 'Unauthorized',
        path: '/v1/tenants',
      });
      expect(typeof res.body.timestamp).toBe('string');
    });

    it('rejects another scheme', async () => {
      const res = await t.http.get('/v1/tenants').set('Authorization', `Bearer ${t.apiKey}`);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid authentication scheme');
    });

    it('rejects an unknown key', async () => {
      const res = await t.http.get('/v1/tenants').set('Authorization', 'ApiKey 0123456789abcdef0123456789abcdef');
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('API Key not found');
    });

    it('accepts a valid key', async () => {
      const res = await t.api('get', '/v1/tenants');
      expect(res.status).toBe(200);
    });

    it('scopes data to the key environment', async () => {
      const created = await t.api('post', '/v1/tenants').send({ identifier: 'acme', name: 'Acme' });
      expect(created.status).toBe(201);
      const production = await t.createKeyFor('Production');
      const foreign = await t.createForeignKey();
      for (const key of [production.apiKey, foreign.apiKey]) {
        expect((await t.api('get', '/v1/tenants/acme', key)).status).toBe(404);
        expect((await t.api('get', '/v1/tenants', key)).body.data).toEqual([]);
      }
      expect((await t.api('get', '/v1/tenants/acme')).status).toBe(200);
    });
  });

  describe('error bodies', () => {
    it('422 with per-field messages on a validation failure', async () => {
      const res = await t.api('post', '/v1/tenants').send({ identifier: 42 });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('Unprocessable Entity');
      expect(Object.keys(res.body.errors).sort()).toEqual(['identifier', 'name']);
      expect(res.body.errors.identifier.messages.length).toBeGreaterThan(0);
      expect(res.body.errors.identifier.value).toBe(42);
    });

    it('422 for null on a field that cannot be cleared', async () => {
      await t.api('post', '/v1/tenants').send({ identifier: 'not-null', name: 'N' }).expect(201);
      const res = await t.api('patch', '/v1/tenants/not-null').send({ identifier: null });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['identifier']);
    });

    it('400 on malformed JSON', async () => {
      const res = await t.api('post', '/v1/tenants').set('Content-Type', 'application/json').send('{"identifier": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', path: '/v1/tenants' });
    });

    it('413 on an oversized body, and nothing is created', async () => {
      const res = await t.api('post', '/v1/tenants').send({ identifier: 'big', name: 'x'.repeat(200 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
      expect((await t.api('get', '/v1/tenants/big')).status).toBe(404);
    });

    it('422 for hostile nesting, before validation can overflow the stack', async () => {
      for (const body of ['['.repeat(2000) + ']'.repeat(2000), '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)]) {
        const res = await t.api('post', '/v1/tenants').set('Content-Type', 'application/json').send(body);
        expect(res.status).toBe(422);
        expect(res.body.message).toMatch(/nested deeper/);
      }
    });

    it('422 for NUL characters in the body or the URL, and nothing is stored', async () => {
      const inBody = await t.api('post', '/v1/tenants').send({ identifier: 'nul\u0000', name: 'n' });
      expect(inBody.status).toBe(422);
      const inKey = await t
        .api('post', '/v1/tenants')
        .send({ identifier: 'nul-key', name: 'n', data: { 'a\u0000': 1 } });
      expect(inKey.status).toBe(422);
      expect((await t.api('get', '/v1/tenants/nul-key')).status).toBe(404);
      expect((await t.api('get', '/v1/tenants/a%00b')).status).toBe(422);
      expect((await t.api('get', '/v1/tenants?page=0&x=%00')).status).toBe(422);
    });

    it('422 for lone surrogates, which PostgreSQL cannot store', async () => {
      const res = await t
        .api('post', '/v1/tenants')
        .set('Content-Type', 'application/json')
        .send('{"identifier":"surrogate","name":"\\udfff"}');
      expect(res.status).toBe(422);
      expect((await t.api('get', '/v1/tenants/surrogate')).status).toBe(404);
    });

    it("the router's own rejections (malformed URL, over-long parameter) use the error body too", async () => {
      const malformed = await t.api('get', '/v1/tenants/%uDFFF');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Malformed URL' });
      const long = await t.api('delete', `/v1/tenants/${'x'.repeat(1_500)}`);
      expect(long.status).toBe(414);
      expect(long.body).toMatchObject({
        statusCode: 414,
        error: 'URI Too Long',
        message: 'A path parameter is too long',
      });
      expect(typeof long.body.timestamp).toBe('string');
    });

    it('404 on an unknown route', async () => {
      const res = await t.api('get', '/v1/no-such-route');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', path: '/v1/no-such-route' });
    });

    it('500 carries an errorId and no stack trace', async () => {
      const res = await t.api('get', '/v1/test/failure');
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({
        statusCode: 500,
        message: 'Internal server error',
        error: 'Internal Server Error',
      });
      expect(res.body.errorId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+/);
    });

    it('every response carries an x-request-id, echoing a given one', async () => {
      const res = await t.http.get('/health').set('x-request-id', 'trace-123');
      expect(res.headers['x-request-id']).toBe('trace-123');
      const generated = await t.http.get('/health');
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('OpenAPI', () => {
    it('serves the document with the ApiKey security scheme', async () => {
      const res = await t.http.get('/api-docs-json');
      expect(res.status).toBe(200);
      expect(res.body.components.securitySchemes['api-key']).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
      });
      expect(res.body.paths['/v1/tenants']).toBeDefined();
    });
  });

  describe('health and queue', () => {
    it('GET /health answers 200 with database and queue up', async () => {
      // The app shares this test process's event loop: a stall of the process (a collection of the test
      // runner's heap on a loaded machine) leaves /health degraded for the 5 s after it, which the next
      // test covers; this one asks until the loop has run freely that long.
      let res = await t.http.get('/health');
      for (const deadline = Date.now() + 8_000; res.body.status === 'degraded' && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        res = await t.http.get('/health');
      }
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'ok', database: 'up', queue: 'up' });
      expect(res.body.eventLoopLagMs).toBeLessThan(1_000);
    });

    it('a stalled event loop makes /health degraded (still 200) and shows in /metrics, until it has run freely for 5 s', async () => {
      // The app runs in this process: a synchronous wait here stalls its event loop like a long render would.
      const until = performance.now() + 1_300;
      while (performance.now() < until) {
        // busy
      }
      const res = await t.http.get('/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('degraded');
      expect(res.body.eventLoopLagMs).toBeGreaterThanOrEqual(1_100);
      const metrics = await t.http.get('/metrics');
      const lag = Number(/^event_loop_lag_max_seconds (\S+)$/m.exec(metrics.text)?.[1]);
      expect(lag).toBeGreaterThanOrEqual(1.1);
      await waitFor(async () => (await t.http.get('/health')).body.status === 'ok', {
        timeoutMs: 10_000,
        description: '/health ok again',
      });
    });

    it(`processes an enqueued job on the configured backend`, async () => {
      const job = await t.queue.add('ping', { sentAt: 'now' });
      await waitFor(async () => (await job.getState()) === 'completed', { timeoutMs: 15_000 });
      const finished = await t.queue.queue('system').getJob(job.id!);
      expect(finished?.returnvalue).toEqual({ pong: 'now' });
    });
  });
});
