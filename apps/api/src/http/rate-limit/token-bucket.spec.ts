import { describe, expect, it } from '@jest/globals';
import { rateLimitCategory, rateLimitCost } from './rate-limit.guard.js';
import { LocalTokenBucketStore, rateLimitHeaders, takeToken } from './token-bucket.js';

const setting = { perSecond: 2, burst: 3 };

describe('token bucket', () => {
  it('allows a burst, then refills at the configured rate', async () => {
    let now = 0;
    const store = new LocalTokenBucketStore(() => now);
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push((await store.take('k', setting)).allowed);
    expect(taken).toEqual([true, true, true, false]);
    now += 499;
    expect((await store.take('k', setting)).allowed).toBe(false);
    now += 2;
    expect((await store.take('k', setting)).allowed).toBe(true);
    expect((await store.take('other', setting)).allowed).toBe(true);
  });

  it('never holds more than the burst', () => {
    expect(takeToken(3, 60_000, setting)).toEqual({ allowed: true, tokens: 2 });
  });

  it('headers: limit, remaining, seconds until full, Retry-After only when limited', () => {
    expect(rateLimitHeaders({ allowed: true, tokens: 2 }, setting)).toEqual({
      'ratelimit-limit': '3',
      'ratelimit-remaining': '2',
      'ratelimit-reset': '1',
    });
    expect(rateLimitHeaders({ allowed: false, tokens: 0.2 }, setting)).toMatchObject({
      'ratelimit-remaining': '0',
      'ratelimit-reset': '2',
      'retry-after': '1',
    });
  });

  it('a take of several tokens is all or nothing', async () => {
    let now = 0;
    const store = new LocalTokenBucketStore(() => now);
    const big = { perSecond: 1, burst: 10 };
    expect(await store.take('k', big, 11)).toEqual({ allowed: false, tokens: 10 });
    expect(await store.take('k', big, 6)).toEqual({ allowed: true, tokens: 4 });
    expect(await store.take('k', big, 5)).toEqual({ allowed: false, tokens: 4 });
    now += 1000;
    expect(await store.take('k', big, 5)).toEqual({ allowed: true, tokens: 0 });
  });

  it('Retry-After of a costly take: when the bucket holds the cost again, at most until full', () => {
    const big = { perSecond: 2, burst: 10 };
    expect(rateLimitHeaders({ allowed: false, tokens: 4 }, big, 8)['retry-after']).toBe('2');
    expect(rateLimitHeaders({ allowed: false, tokens: 4 }, big, 50)['retry-after']).toBe('3');
  });

  it('cost: one per request, one per event of a bulk trigger (at most the bulk maximum)', () => {
    const bulk = (count: number) => ({ events: Array.from({ length: count }, () => ({})) });
    expect(rateLimitCost('POST', '/v1/events/trigger', { name: 'w', to: 's' })).toBe(1);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk', bulk(37))).toBe(37);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk?x=1', bulk(2))).toBe(2);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk', bulk(5000))).toBe(100);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk', bulk(0))).toBe(1);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk', { events: 'many' })).toBe(1);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulk', undefined)).toBe(1);
    expect(rateLimitCost('DELETE', '/v1/events/trigger/bulk', bulk(5))).toBe(1);
    expect(rateLimitCost('POST', '/v1/events/trigger/bulkier', bulk(5))).toBe(1);
  });

  it('categories', () => {
    expect(rateLimitCategory('POST', '/v1/events/trigger')).toBe('trigger');
    expect(rateLimitCategory('DELETE', '/v1/events/trigger/tx')).toBe('trigger');
    expect(rateLimitCategory('PATCH', '/v2/subscribers/a')).toBe('configuration');
    expect(rateLimitCategory('GET', '/v1/notifications?page=1')).toBe('global');
  });
});
