import { dayName, to24Hour, WEEK_DAYS } from './schedule-values';
import type { Schedule } from './subscribers-api';

/** Each day as the engine reads it: closed, open all day, or its hours. */
function days(schedule: Schedule): string[] {
  return WEEK_DAYS.map((day) => {
    const entry = schedule.weeklySchedule?.[day];
    // An empty list of hours closes the day; no list at all opens it all day.
    if (!entry?.isEnabled || entry.hours?.length === 0) return `${dayName(day)}: closed`;
    if (!entry.hours) return `${dayName(day)}: all day`;
    return `${dayName(day)}: ${entry.hours.map((range) => `${to24Hour(range.start)}–${to24Hour(range.end)}`).join(', ')}`;
  });
}

/** The global preference's schedule, read-only: when the subscriber is delivered to, day by day. */
export function ScheduleSummary({ schedule }: { schedule?: Schedule }) {
  if (!schedule?.isEnabled) return <p className="muted">No delivery schedule: messages are delivered at any hour.</p>;
  return (
    <ul aria-label="Delivery schedule">
      {days(schedule).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
