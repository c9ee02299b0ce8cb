import { WEEK_DAYS, type WeekDay } from '#common';
import { addLocalDays, resolveTimeZone, zonedParts, zonedToInstant } from './zoned-time.js';

export interface TimeRange {
  start: string;
  end: string;
}

export interface DaySchedule {
  isEnabled: boolean;
  hours?: TimeRange[];
}

/** The spec's Schedule: the weekly hours in which email, sms, chat and push may be delivered. */
export interface Schedule {
  isEnabled: boolean;
  weeklySchedule?: Partial<Record<WeekDay, DaySchedule>> | Record<string, DaySchedule>;
}

const TIME_12H = /^(0?[1-9]|1[0-2]):([0-5]\d)\s?(AM|PM)$/i;
const MINUTES_PER_DAY = 1440;

/** Minutes after midnight of a `h:mm AM|PM` time, or undefined when it is not one. */
export function parseTime12h(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TIME_12H.exec(value.trim());
  if (!match) return undefined;
  const hour = (Number(match[1]) % 12) + (match[3].toUpperCase() === 'PM' ? 12 : 0);
  return hour * 60 + Number(match[2]);
}

/**
 * Open intervals of one day in minutes from that day's midnight. A range whose end is not after its
 * start crosses midnight, so its end lies in the next day (> 1440); equal ends mean a full 24 hours.
 */
function openIntervals(day: DaySchedule | undefined): [number, number][] {
  if (!day?.isEnabled) return [];
  if (day.hours === undefined || day.hours === null) return [[0, MINUTES_PER_DAY]];
  const intervals: [number, number][] = [];
  for (const range of day.hours) {
    const start = parseTime12h(range?.start);
    const end = parseTime12h(range?.end);
    if (start === undefined || end === undefined) continue;
    intervals.push([start, end > start ? end : end + MINUTES_PER_DAY]);
  }
  return intervals.sort((a, b) => a[0] - b[0]);
}

function dayOf(schedule: Schedule, weekday: WeekDay): DaySchedule | undefined {
  return schedule.weeklySchedule?.[weekday];
}

/**
 * Whether the schedule restricts anything. A disabled schedule does not; neither does an enabled one
 * without a single open hour in the week, because holding messages for a slot that never comes
 * would lose them silently.
 */
function restricts(schedule: Schedule | null | undefined): schedule is Schedule {
  if (!schedule?.isEnabled) return false;
  return WEEK_DAYS.some((weekday) => openIntervals(dayOf(schedule, weekday)).length > 0);
}

function openAt(schedule: Schedule, timeZone: string, instant: number): boolean {
  const local = zonedParts(instant, timeZone);
  const minute = local.hour * 60 + local.minute;
  if (openIntervals(dayOf(schedule, local.weekday)).some(([start, end]) => minute >= start && minute < end))
    return true;
  const yesterday = addLocalDays(local.year, local.month, local.day, -1).weekday;
  return openIntervals(dayOf(schedule, yesterday)).some(([, end]) => minute + MINUTES_PER_DAY < end);
}

/** Whether `now` falls inside the schedule, read in the subscriber's IANA zone (UTC when none or unknown). */
export function isWithinSchedule(
  schedule: Schedule | null | undefined,
  timezone: string | null | undefined,
  now: Date,
): boolean {
  if (!restricts(schedule)) return true;
  return openAt(schedule, resolveTimeZone(timezone), now.getTime());
}

/** `now` when inside the schedule, else the start of the next open range (searched over the coming week). */
export function nextOpenSlot(
  schedule: Schedule | null | undefined,
  timezone: string | null | undefined,
  now: Date,
): Date {
  if (!restricts(schedule)) return now;
  const timeZone = resolveTimeZone(timezone);
  const from = now.getTime();
  if (openAt(schedule, timeZone, from)) return now;
  const today = zonedParts(from, timeZone);
  let best: number | undefined;
  for (let offset = 0; offset <= 7 && best === undefined; offset++) {
    const date = addLocalDays(today.year, today.month, today.day, offset);
    for (const [start] of openIntervals(dayOf(schedule, date.weekday))) {
      const instant = zonedToInstant(date.year, date.month, date.day, start, timeZone);
      if (instant > from && openAt(schedule, timeZone, instant) && (best === undefined || instant < best))
        best = instant;
    }
  }
  return best === undefined ? now : new Date(best);
}
