import { WEEK_DAYS, type WeekDay } from '#common';

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: WeekDay;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'long',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The IANA zone to use: the given one when the runtime knows it, UTC otherwise. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    formatterFor(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** Wall-clock parts of an instant in a zone (the zone must come from resolveTimeZone). */
export function zonedParts(instant: Date | number, timeZone: string): ZonedParts & { second: number } {
  const values: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) values[part.type] = part.value;
  return {
    year: Number(values.year),
    month: Number(values.month),
    day: Number(values.day),
    hour: Number(values.hour),
    minute: Number(values.minute),
    second: Number(values.second),
    weekday: values.weekday.toLowerCase() as WeekDay,
  };
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

const DAY_MS = 86_400_000;

/**
 * The instant at which the zone's wall clock shows that local time. A wall time skipped by a DST jump
 * lands just after the jump; a repeated one resolves to its first occurrence.
 */
export function zonedToInstant(
  year: number,
  month: number,
  day: number,
  minuteOfDay: number,
  timeZone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, 0, minuteOfDay);
  // The offsets a day either side cover both sides of any DST transition near this wall time.
  const candidates = [offsetAt(wall - DAY_MS, timeZone), offsetAt(wall + DAY_MS, timeZone)].map(
    (offset) => wall - offset,
  );
  const exact = candidates.filter((instant) => {
    const p = zonedParts(instant, timeZone);
    return p.day === day && p.hour * 60 + p.minute === minuteOfDay;
  });
  return exact.length ? Math.min(...exact) : Math.max(...candidates);
}

/** Calendar arithmetic on a local date, independent of any zone. */
export function addLocalDays(
  year: number,
  month: number,
  day: number,
  days: number,
): { year: number; month: number; day: number; weekday: WeekDay } {
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: WEEK_DAYS[(date.getUTCDay() + 6) % 7],
  };
}
