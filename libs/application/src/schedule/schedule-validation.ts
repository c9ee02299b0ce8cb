import { WEEK_DAYS } from '#common';
import { parseTime12h, type DaySchedule, type Schedule } from './schedule.js';

export interface ScheduleIssue {
  /** Path of the offending field, e.g. `schedule.weeklySchedule.monday.hours[0].start`. */
  path: string;
  message: string;
  value: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every rule a Schedule must meet (BEHAVIOR §7), reported per field so the API can answer 422 with
 * one message per path. An empty list means the value is a valid Schedule.
 */
export function validateSchedule(value: unknown, path = 'schedule'): ScheduleIssue[] {
  if (!isObject(value)) return [{ path, message: `${path} must be an object`, value }];
  const issues: ScheduleIssue[] = [];
  if (typeof value.isEnabled !== 'boolean') {
    issues.push({ path: `${path}.isEnabled`, message: `${path}.isEnabled must be a boolean`, value: value.isEnabled });
  }
  const weeklyPath = `${path}.weeklySchedule`;
  const weekly = value.weeklySchedule;
  if (weekly === undefined) {
    if (value.isEnabled === true)
      issues.push({
        path: weeklyPath,
        message: `${weeklyPath} is required when the schedule is enabled`,
        value: weekly,
      });
    return issues;
  }
  if (!isObject(weekly))
    return [...issues, { path: weeklyPath, message: `${weeklyPath} must be an object`, value: weekly }];
  if (value.isEnabled === true && Object.keys(weekly).length === 0) {
    issues.push({
      path: weeklyPath,
      message: `${weeklyPath} must name at least one day when the schedule is enabled`,
      value: weekly,
    });
  }
  for (const [key, day] of Object.entries(weekly)) {
    const dayPath = `${weeklyPath}.${key}`;
    if (!(WEEK_DAYS as readonly string[]).includes(key)) {
      issues.push({
        path: dayPath,
        message: `${key} is not a day of the week; use one of ${WEEK_DAYS.join(', ')}`,
        value: day,
      });
      continue;
    }
    issues.push(...validateDay(day, dayPath));
  }
  return issues;
}

function validateDay(day: unknown, path: string): ScheduleIssue[] {
  if (!isObject(day)) return [{ path, message: `${path} must be an object`, value: day }];
  const issues: ScheduleIssue[] = [];
  if (typeof day.isEnabled !== 'boolean') {
    issues.push({ path: `${path}.isEnabled`, message: `${path}.isEnabled must be a boolean`, value: day.isEnabled });
  }
  if (day.hours === undefined) return issues;
  if (!Array.isArray(day.hours))
    return [...issues, { path: `${path}.hours`, message: `${path}.hours must be an array`, value: day.hours }];
  day.hours.forEach((range: unknown, index) => {
    const rangePath = `${path}.hours[${index}]`;
    if (!isObject(range)) {
      issues.push({ path: rangePath, message: `${rangePath} must be an object with start and end`, value: range });
      return;
    }
    for (const edge of ['start', 'end'] as const) {
      if (parseTime12h(range[edge]) === undefined) {
        issues.push({
          path: `${rangePath}.${edge}`,
          message: `${rangePath}.${edge} must be a 12-hour time like 09:00 AM`,
          value: range[edge],
        });
      }
    }
  });
  return issues;
}

/** A validated schedule reduced to the spec's fields, so stray properties are never stored. */
export function normalizeSchedule(value: Schedule): Schedule {
  const schedule: Schedule = { isEnabled: value.isEnabled };
  if (value.weeklySchedule) {
    schedule.weeklySchedule = Object.fromEntries(
      Object.entries(value.weeklySchedule as Record<string, DaySchedule>).map(([day, entry]) => [
        day,
        entry.hours === undefined
          ? { isEnabled: entry.isEnabled }
          : { isEnabled: entry.isEnabled, hours: entry.hours.map(({ start, end }) => ({ start, end })) },
      ]),
    );
  }
  return schedule;
}
