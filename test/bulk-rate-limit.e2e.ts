import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

/** 10 trigger tokens, refilled at one a second: a test's few requests see the burst, hardly any refill. */
const LIMITS = { RATE_LIMIT_TRIGGER_BURST: '10', RATE_LIMIT_TRIGGER_PER_SECOND: '1' };

const events = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ name: 'no-such-workflow', to: `${prefix}-${i}`, payload: {} }));

describe('a bulk trigger costs one rate-limit token per event', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMITS });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a bulk of more events than the burst is refused with 429, and takes nothing from the bucket', async () => {
    const refused = await t.api('post', '/v1/events/trigger/bulk').send({ events: events(11, 'too-many') });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      path: '/v1/events/trigger/bulk',
    });
    expect(refused.body.message).toContain('11 events');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // The refused bulk spent nothing (the bucket is still full): 6 events fit and leave 4 tokens; then
    // 9 do not (unless 5 s passed), 4 do.
    const six = await t.api('post', '/v1/events/trigger/bulk').send({ events: events(6, 'six') });
    expect(six.status).toBe(201);
    expect(six.headers['ratelimit-remaining']).toBe('4');
    const nine = await t.api('post', '/v1/events/trigger/bulk').send({ events: events(9, 'nine') });
    expect(nine.status).toBe(429);
    expect(nine.body.message).toContain('9 events');
    const four = await t.api('post', '/v1/events/trigger/bulk').send({ events: events(4, 'four') });
    expect(four.status).toBe(201);
    expect(four.body).toHaveLength(4);
  });

  it('single triggers share the bucket: one token each', async () => {
    const other = await t.createKeyFor('Production');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await t
            .api('post', '/v1/events/trigger', other.apiKey)
            .send({ name: 'no-such-workflow', to: `single-${i}`, payload: {} })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true);
    const bulk = await t
      .api('post', '/v1/events/trigger/bulk', other.apiKey)
      .send({ events: events(2, 'after-singles') });
    expect(bulk.status).toBe(429);
  });
});
