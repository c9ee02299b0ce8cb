import { MAX_WEBHOOK_ATTEMPTS, retryAfterMs, retryWaitMs } from './retry-schedule.js';

describe('webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const waits = Array.from({ length: MAX_WEBHOOK_ATTEMPTS }, (_, index) => retryWaitMs(index + 1, () => 0.5));
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, undefined]);
  });

  it('spreads each wait by at most 10 %', () => {
    expect(retryWaitMs(1, () => 0)).toBe(4_500);
    expect(retryWaitMs(1, () => 1)).toBe(5_500);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
