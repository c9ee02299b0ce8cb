import type { FieldMessages } from '../../api/client';
import type { Schedule } from './subscribers-api';

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export interface TimeRangeValues {
  start: string;
  end: string;
}

/** A day as the form holds it: on with no range means open all day, as the API reads a day without hours. */
interface DayValues {
  isEnabled: boolean;
  hours: TimeRangeValues[];
}

export interface ScheduleValues {
  mode: 'none' | 'weekly';
  days: Record<WeekDay, DayValues>;
}

export const dayName = (day: WeekDay) => day[0].toUpperCase() + day.slice(1);

/** Where the API puts its message about one edge of a range; the form's own checks use the same paths. */
export const rangePath = (day: WeekDay, index: number, edge: keyof TimeRangeValues) =>
  `schedule.weeklySchedule.${day}.hours[${index}].${edge}`;

const TIME_24H = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const TIME_12H = /^(0?[1-9]|1[0-2]):([0-5]\d)\s?(AM|PM)$/i;
const pad = (value: number) => String(value).padStart(2, '0');

/** `17:30` as the API stores it (`05:30 PM`), or undefined when it is not an HH:MM time. */
function to12Hour(time: string): string | undefined {
  const match = TIME_24H.exec(time.trim());
  if (!match) return undefined;
  const hour = Number(match[1]);
  return `${pad(hour % 12 || 12)}:${match[2]} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** A stored `05:30 PM` as `17:30`; anything else is shown as stored, for the editor to correct. */
export function to24Hour(time: string): string {
  const match = TIME_12H.exec(time.trim());
  if (!match) return time;
  const hour = (Number(match[1]) % 12) + (match[3].toUpperCase() === 'PM' ? 12 : 0);
  return `${pad(hour)}:${match[2]}`;
}

/** A new range starts at office hours; the first day of a new schedule too. */
export const OFFICE_HOURS: TimeRangeValues = { start: '09:00', end: '17:00' };

/**
 * The stored schedule as the form edits it; with none, an example (weekdays, office hours) that is saved only
 * when the editor picks it. A day missing from a stored schedule is closed, as the engine reads it.
 */
export function scheduleValues(schedule: Schedule | null | undefined): ScheduleValues {
  const days = Object.fromEntries(
    WEEK_DAYS.map((day, index) => {
      if (!schedule) return [day, { isEnabled: index < 5, hours: [OFFICE_HOURS] }];
      const stored = schedule.weeklySchedule?.[day];
      const hours = (stored?.hours ?? []).map(({ start, end }) => ({ start: to24Hour(start), end: to24Hour(end) }));
      // A stored empty list of hours closes the day, where an on day without ranges here would open it all day.
      return [day, { isEnabled: (stored?.isEnabled ?? false) && stored?.hours?.length !== 0, hours }];
    }),
  ) as Record<WeekDay, DayValues>;
  return { mode: schedule?.isEnabled ? 'weekly' : 'none', days };
}

/** Messages, by the API's paths, for the times of open days that are not HH:MM; none when all are. */
export function timeMessages(values: ScheduleValues): FieldMessages {
  if (values.mode === 'none') return {};
  const messages: FieldMessages = {};
  for (const day of WEEK_DAYS) {
    if (!values.days[day].isEnabled) continue;
    values.days[day].hours.forEach((range, index) => {
      for (const edge of ['start', 'end'] as const) {
        if (!to12Hour(range[edge])) messages[rangePath(day, index, edge)] = ['Enter a time as HH:MM, 00:00 to 23:59'];
      }
    });
  }
  return messages;
}

/**
 * What PATCH …/preferences takes: null for no schedule, else every day with its ranges in 12-hour times. A day
 * switched off is sent without its ranges; an end before the start is a range that crosses midnight (the API
 * takes it so).
 */
export function scheduleInput(values: ScheduleValues): Schedule | null {
  if (values.mode === 'none') return null;
  const weeklySchedule = Object.fromEntries(
    WEEK_DAYS.map((day) => {
      const { isEnabled, hours } = values.days[day];
      if (!isEnabled || hours.length === 0) return [day, { isEnabled }];
      // timeMessages has checked them; one that slipped through is sent as typed, and the API refuses it.
      const stored = hours.map(({ start, end }) => ({ start: to12Hour(start) ?? start, end: to12Hour(end) ?? end }));
      return [day, { isEnabled, hours: stored }];
    }),
  );
  return { isEnabled: true, weeklySchedule };
}

/** The messages no range input shows (a day, the whole schedule), each naming its field. */
export function unplacedMessages(messages: FieldMessages, values: ScheduleValues): string[] {
  const shown = new Set(
    values.mode === 'none'
      ? []
      : WEEK_DAYS.filter((day) => values.days[day].isEnabled).flatMap((day) =>
          values.days[day].hours.flatMap((_, index) => [rangePath(day, index, 'start'), rangePath(day, index, 'end')]),
        ),
  );
  return Object.entries(messages)
    .filter(([path]) => !shown.has(path))
    .flatMap(([path, list]) => list.map((message) => (message.startsWith(path) ? message : `${path}: ${message}`)));
}
