/**
 * Waits before each attempt after the first (which goes at once): 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h — eight attempts over about 28 hours, as receivers of Standard Webhooks expect.
 */
const WAITS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const MAX_WEBHOOK_ATTEMPTS = WAITS_MS.length + 1;

/** The wait after failed attempt `attempt` (1-based), ±10 % so retries of many events spread out; undefined after the last. */
export function retryWaitMs(attempt: number, random = Math.random): number | undefined {
  const wait = WAITS_MS[attempt - 1];
  return wait === undefined ? undefined : Math.round(wait * (0.9 + 0.2 * random()));
}

/** A `Retry-After` header (seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
