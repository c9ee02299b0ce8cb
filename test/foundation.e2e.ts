import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /health answers 200 with database and queue up', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', queue: 'up' });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('401 without key', async () => {
    const res = await t.http.get('/v1/test/failure');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Missing authorization header');
  });

  it('500 has an errorId and no stack', async () => {
    const res = await t.api('get', '/v1/test/failure');
    expect(res.status).toBe(500);
    expect(res.body.errorId).toBeDefined();
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/);
  });

  it('processes a ping job', async () => {
    const job = await t.queue.add('ping', { sentAt: 'x' });
    const started = Date.now();
    let state = await job.getState();
    while (state !== 'completed' && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
      state = await job.getState();
    }
    console.log('ping took', Date.now() - started, state);
    expect(state).toBe('completed');
  });
});
