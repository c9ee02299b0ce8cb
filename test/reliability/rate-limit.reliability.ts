import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createLogger, loadConfig } from '#common';
import { Redis } from 'ioredis';
import { leaseSize, RedisTokenBucketStore } from '#api/http/rate-limit/redis-token-bucket.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../support/test-app.js';
import { sleep, waitFor } from '../support/wait.js';

const SMALL_LIMITS = {
  RATE_LIMIT_TRIGGER_BURST: '3',
  RATE_LIMIT_TRIGGER_PER_SECOND: '1',
  RATE_LIMIT_CONFIGURATION_BURST: '2',
  RATE_LIMIT_CONFIGURATION_PER_SECOND: '1',
  RATE_LIMIT_GLOBAL_BURST: '5',
  RATE_LIMIT_GLOBAL_PER_SECOND: '2',
};

const trigger = (t: TestApp, key?: string) =>
  t.api('post', '/v1/events/trigger', key).send({ name: 'no-such-workflow', to: 'subscriber-1', payload: {} });

/** Scenario 8, for both stores: Redis (shared by processes) and the in-process buckets. */
describe.each([
  ['Redis', {}],
  ['in-process', { REDIS_URL: '' }],
])('rate limiting (%s buckets)', (_name, storeEnv) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...SMALL_LIMITS, ...storeEnv } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('trigger bucket: headers count down, then 429 with Retry-After in the standard error body; refills', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await trigger(t);
      expect(res.status).toBeLessThan(429);
      expect(res.headers['ratelimit-limit']).toBe('3');
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await trigger(t);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', path: '/v1/events/trigger' });
    expect(limited.body.message).toContain('trigger');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);

    // Other categories and other environments have their own buckets.
    expect((await t.api('get', '/v1/tenants')).status).toBe(200);
    const production = await t.createKeyFor('Production');
    expect((await trigger(t, production.apiKey)).status).toBeLessThan(429);

    await sleep(Number(limited.headers['retry-after']) * 1000 + 50);
    expect((await trigger(t)).status).toBeLessThan(429);
  });

  it('configuration writes and global reads are limited separately; a limited write changes nothing', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push((await t.api('post', '/v1/tenants').send({ identifier: `rl-${i}`, name: `Tenant ${i}` })).status);
    }
    expect(created).toEqual([201, 201, 429]);
    expect((await t.api('get', '/v1/tenants/rl-2')).status).toBe(404);

    const reads = [];
    for (let i = 0; i < 6; i++) reads.push((await t.api('get', '/v1/tenants')).status);
    expect(reads.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
  });

  it('public routes and rejected keys are not counted', async () => {
    for (let i = 0; i < 10; i++) expect((await t.http.get('/health')).status).toBe(200);
    const res = await t.http.get('/v1/tenants').set('Authorization', 'ApiKey nope');
    expect(res.status).toBe(401);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('Redis buckets shared by several api processes', () => {
  const url = loadConfig({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }).redisUrl!;
  const logger = createLogger('silent');
  const stores = [new RedisTokenBucketStore(url, logger), new RedisTokenBucketStore(url, logger)];
  afterAll(() => {
    for (const store of stores) store.close();
  });

  it('concurrent takes through two connections never exceed the burst (one atomic script)', async () => {
    const key = `rl-test-${randomBytes(4).toString('hex')}`;
    const setting = { burst: 20, perSecond: 1 };
    await waitFor(
      async () =>
        (await stores[0].take(`${key}-warm`, setting)).allowed &&
        (await stores[1].take(`${key}-warm`, setting)).allowed,
    );
    const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => stores[i % 2].take(key, setting)));
    const allowed = decisions.filter((decision) => decision.allowed).length;
    // One token may refill while the 100 calls run.
    expect(allowed).toBeGreaterThanOrEqual(20);
    expect(allowed).toBeLessThanOrEqual(21);
  });

  it('a large bucket: the next 10 ms of its rate is leased to the process and spent without Redis', async () => {
    const redis = new Redis(url);
    try {
      const key = `rl-test-${randomBytes(4).toString('hex')}`;
      const setting = { burst: 10_000, perSecond: 10_000 };
      expect(leaseSize(setting)).toBe(100);
      expect((await stores[0].take(key, setting)).allowed).toBe(true);
      const bucket = async () => {
        const [tokens, at] = await redis.hmget(key, 'tokens', 'at');
        return { tokens: Number(tokens), at: Number(at) };
      };
      const afterLease = await bucket();
      expect(afterLease.tokens).toBeLessThanOrEqual(10_000 - 101);
      const spent = await Promise.all(Array.from({ length: 100 }, () => stores[0].take(key, setting)));
      expect(spent.every((decision) => decision.allowed)).toBe(true);
      // The shared bucket saw none of those 100 takes.
      expect(await bucket()).toEqual(afterLease);
      expect((await stores[0].take(key, setting)).allowed).toBe(true);
      // The next take leased again: the bucket was written (a later time, or fewer tokens within the same
      // millisecond; after 10 ms the refill alone gives back a whole lease, so tokens may read the same).
      const afterNextLease = await bucket();
      expect(afterNextLease.at > afterLease.at || afterNextLease.tokens < afterLease.tokens).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('a bulk takes its cost at once, all or nothing, together with the process lease', async () => {
    const redis = new Redis(url);
    try {
      const key = `rl-test-${randomBytes(4).toString('hex')}`;
      const small = { burst: 10, perSecond: 1 };
      expect(leaseSize(small)).toBe(0);
      expect((await stores[0].take(key, small, 11)).allowed).toBe(false);
      // The refused bulk took nothing: what Redis granted it went back to the shared bucket.
      expect(Number(await redis.hget(key, 'tokens'))).toBeGreaterThanOrEqual(10);
      expect((await stores[1].take(key, small, 6)).allowed).toBe(true);
      expect((await stores[0].take(key, small, 5)).allowed).toBe(false);
      const four = await Promise.all([stores[0].take(key, small, 2), stores[1].take(key, small, 2)]);
      expect(four.every((decision) => decision.allowed)).toBe(true);
      expect((await stores[0].take(key, small, 1)).allowed).toBe(false);

      // A bulk larger than the process's lease: the lease joins the take, and a new lease is kept.
      const large = { burst: 10_000, perSecond: 10_000 };
      const bigKey = `rl-test-${randomBytes(4).toString('hex')}`;
      expect((await stores[0].take(bigKey, large, 1)).allowed).toBe(true);
      expect((await stores[0].take(bigKey, large, 150)).allowed).toBe(true);
      const afterBulk = Number(await redis.hget(bigKey, 'tokens'));
      const spent = await Promise.all(Array.from({ length: 100 }, () => stores[0].take(bigKey, large, 1)));
      expect(spent.every((decision) => decision.allowed)).toBe(true);
      expect(Number(await redis.hget(bigKey, 'tokens'))).toBe(afterBulk);
    } finally {
      redis.disconnect();
    }
  });

  it('leases never let two processes exceed the shared burst', async () => {
    const key = `rl-test-${randomBytes(4).toString('hex')}`;
    const setting = { burst: 200, perSecond: 1_000 };
    expect(leaseSize(setting)).toBe(10);
    const startedAt = performance.now();
    const decisions = await Promise.all(Array.from({ length: 1_000 }, (_, i) => stores[i % 2].take(key, setting)));
    const refilled = Math.ceil(((performance.now() - startedAt) * setting.perSecond) / 1000);
    const allowed = decisions.filter((decision) => decision.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(200 - 2 * leaseSize(setting));
    expect(allowed).toBeLessThanOrEqual(200 + refilled);
  });
});
