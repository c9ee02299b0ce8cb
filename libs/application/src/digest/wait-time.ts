import { TIME_UNITS, type TimeUnit } from '#common';

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const UNIT_MS: Record<TimeUnit, number> = {
  seconds: SECOND,
  minutes: 60 * SECOND,
  hours: 3600 * SECOND,
  days: DAY,
  weeks: 7 * DAY,
  // A month is 30 days, as in Novu.
  months: 30 * DAY,
};

/** The longest a delay or digest may defer a step. */
export const MAX_DEFER_MS = 180 * DAY;

/** amount × unit in ms, or undefined when either is missing or invalid. */
export function durationMs(amount: unknown, unit: unknown): number | undefined {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  if (typeof unit !== 'string' || !(TIME_UNITS as readonly string[]).includes(unit)) return undefined;
  return value * UNIT_MS[unit as TimeUnit];
}

export type WaitResult = { runAt: Date } | { error: string };

function capped(now: Date, runAt: Date): WaitResult {
  if (runAt.getTime() - now.getTime() > MAX_DEFER_MS)
    return { error: 'Defer duration limit exceeded: a step may wait at most 180 days' };
  return { runAt };
}

/** When a delay step releases: regular = amount × unit; scheduled = the ISO date at payload[delayPath]. */
export function delayUntil(
  metadata: Record<string, unknown> | undefined,
  payload: Record<string, unknown>,
  now: Date,
  read: (path: string) => unknown,
): WaitResult {
  const type = metadata?.type ?? 'regular';
  if (type === 'scheduled') {
    const path = metadata?.delayPath;
    if (typeof path !== 'string' || !path)
      return { error: 'Invalid delay configuration: a scheduled delay needs delayPath' };
    const raw = read(path);
    if (typeof raw !== 'string' || Number.isNaN(Date.parse(raw)))
      return { error: `Invalid delay configuration: payload.${path} is not an ISO date` };
    const date = new Date(raw);
    if (date.getTime() <= now.getTime())
      return { error: `Invalid delay configuration: payload.${path} (${raw}) is in the past` };
    return capped(now, date);
  }
  if (type !== 'regular') {
    const shown = typeof type === 'string' ? type : JSON.stringify(type);
    return { error: `Invalid delay configuration: unknown delay type ${shown}` };
  }
  const ms = durationMs(metadata?.amount, metadata?.unit);
  if (ms === undefined) return { error: 'Invalid delay configuration: amount and unit are required' };
  void payload;
  return capped(now, new Date(now.getTime() + ms));
}
