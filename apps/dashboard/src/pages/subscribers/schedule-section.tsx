import { useState } from 'react';
import { FormError } from '../../ui/field';
import { parsedJsonObject } from '../../ui/json-object';
import { LazyJsonEditor } from '../../ui/lazy-json-editor';
import { useSave } from '../../ui/use-save';
import { useUpdatePreferences, type Schedule } from './subscribers-api';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const EXAMPLE: Schedule = {
  isEnabled: true,
  weeklySchedule: Object.fromEntries(
    DAYS.slice(0, 5).map((day) => [day, { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] }]),
  ),
};

/** Each day as the engine reads it: closed, open all day, or its hours. */
function days(schedule: Schedule): string[] {
  return DAYS.map((day) => {
    const entry = schedule.weeklySchedule?.[day];
    if (!entry?.isEnabled) return `${day}: closed`;
    if (!entry.hours?.length) return `${day}: all day`;
    return `${day}: ${entry.hours.map((range) => `${range.start}–${range.end}`).join(', ')}`;
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

/**
 * The schedule as JSON, the shape PATCH …/preferences takes (`{ isEnabled, weeklySchedule }`, 12-hour times);
 * the API's messages name the field they refuse (`schedule.weeklySchedule.monday.hours[0].start`).
 */
export function ScheduleEditor({ subscriberId, schedule }: { subscriberId: string; schedule?: Schedule }) {
  const update = useUpdatePreferences(subscriberId);
  const [text, setText] = useState(JSON.stringify(schedule ?? EXAMPLE, null, 2));
  const { failure, submit } = useSave(
    (next: 'save' | 'remove') =>
      update.mutateAsync({
        schedule: next === 'remove' ? null : (parsedJsonObject(text, 'schedule') as unknown as Schedule),
      }),
    () => undefined,
  );
  const messages = Object.entries(failure?.fields ?? {}).flatMap(([path, list]) =>
    list.map((message) => (message.startsWith(path) ? message : `${path}: ${message}`)),
  );
  return (
    <div className="field">
      {schedule ? null : <p className="muted">An example to start from: nothing changes until it is saved.</p>}
      <LazyJsonEditor label="Schedule (JSON)" value={text} onChange={setText} />
      {messages.length ? (
        <p className="field-error" role="alert">
          {messages.join('; ')}
        </p>
      ) : null}
      <FormError message={messages.length ? undefined : failure?.message} />
      <div className="actions">
        <button type="button" disabled={update.isPending} onClick={() => void submit('save')}>
          Save schedule
        </button>
        {schedule ? (
          <button type="button" className="danger" disabled={update.isPending} onClick={() => void submit('remove')}>
            Remove schedule
          </button>
        ) : null}
      </div>
    </div>
  );
}
