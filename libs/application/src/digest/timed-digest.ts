import type { WeekDay } from '#common';
import { addLocalDays, resolveTimeZone, zonedParts, zonedToInstant } from '../schedule/zoned-time.js';
import { durationMs } from './wait-time.js';

export interface TimedConfig {
  atTime?: string;
  weekDays?: string[];
  monthDays?: (string | number)[];
  ordinal?: string;
  ordinalValue?: string;
  monthlyType?: string;
}

const WEEKEND: WeekDay[] = ['saturday', 'sunday'];
const SEARCH_DAYS = 400;

function minuteOfDay(atTime: string | undefined): number {
  const match = /^(\d{1,2}):(\d{2})/.exec(atTime ?? '');
  if (!match) return 0;
  return Math.min(23, Number(match[1])) * 60 + Math.min(59, Number(match[2]));
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function matchesKind(weekday: WeekDay, kind: string): boolean {
  if (kind === 'day') return true;
  if (kind === 'weekday') return !WEEKEND.includes(weekday);
  if (kind === 'weekend') return WEEKEND.includes(weekday);
  return weekday === kind;
}

/** Whether a local date is the `ordinal`-th (1..5 or last) day of `kind` in its month. */
function matchesOrdinal(
  date: { year: number; month: number; day: number; weekday: WeekDay },
  ordinal: string,
  kind: string,
): boolean {
  if (!matchesKind(date.weekday, kind)) return false;
  const sameKindDays: number[] = [];
  for (let day = 1; day <= daysInMonth(date.year, date.month); day++) {
    if (matchesKind(addLocalDays(date.year, date.month, day, 0).weekday, kind)) sameKindDays.push(day);
  }
  const position = ordinal === 'last' ? sameKindDays.length : Number(ordinal);
  return sameKindDays[position - 1] === date.day;
}

/**
 * When a timed digest window closes, in the subscriber's timezone: minutes/hours count from now;
 * days, weeks and months pick the next matching calendar day at `atTime`.
 */
export function nextTimedRelease(
  config: { amount?: unknown; unit?: unknown; timed?: TimedConfig },
  timezone: string | null | undefined,
  now: Date,
): Date | undefined {
  if (config.unit === 'seconds' || config.unit === 'minutes' || config.unit === 'hours') {
    const ms = durationMs(config.amount ?? 1, config.unit);
    return ms === undefined ? undefined : new Date(now.getTime() + ms);
  }
  const timed = config.timed ?? {};
  const zone = resolveTimeZone(timezone);
  const today = zonedParts(now, zone);
  const at = minuteOfDay(timed.atTime);
  const weekDays = timed.weekDays?.length ? timed.weekDays : undefined;
  const monthDays = timed.monthDays?.length ? timed.monthDays.map(Number) : undefined;
  const ordinal = timed.monthlyType === 'on' && timed.ordinal ? timed.ordinal : undefined;
  for (let offset = 0; offset <= SEARCH_DAYS; offset++) {
    const date = addLocalDays(today.year, today.month, today.day, offset);
    if (weekDays && !weekDays.includes(date.weekday)) continue;
    if (monthDays && !ordinal && !monthDays.includes(date.day)) continue;
    if (ordinal && !matchesOrdinal(date, ordinal, timed.ordinalValue ?? 'day')) continue;
    const instant = zonedToInstant(date.year, date.month, date.day, at, zone);
    if (instant > now.getTime()) return new Date(instant);
  }
  return undefined;
}
