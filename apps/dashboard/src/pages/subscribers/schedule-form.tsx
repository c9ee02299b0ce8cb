import { useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../api/client';
import { FormError } from '../../ui/field';
import { useSave } from '../../ui/use-save';
import { DayFields } from './schedule-day';
import {
  scheduleInput,
  scheduleValues,
  timeMessages,
  unplacedMessages,
  WEEK_DAYS,
  type ScheduleValues,
} from './schedule-values';
import { useUpdatePreferences, type Preferences, type Schedule } from './subscribers-api';

/**
 * The global preference's schedule as an editor changes it: PATCH …/preferences with the week, or null for no
 * schedule. Times are typed as HH:MM and stored as the API's 12-hour times.
 */
export function ScheduleForm({ subscriberId, schedule }: { subscriberId: string; schedule?: Schedule }) {
  const update = useUpdatePreferences(subscriberId);
  const { register, control, handleSubmit, reset } = useForm<ScheduleValues>({
    defaultValues: scheduleValues(schedule),
  });
  const values = useWatch({ control }) as ScheduleValues;
  const { failure, submit } = useSave(
    (typed: ScheduleValues) => {
      const refused = timeMessages(typed);
      // Refused before it is sent, in the shape of the API's refusal, so both show next to the same inputs.
      if (Object.keys(refused).length) throw new ApiError(422, 'Some times are not HH:MM.', refused);
      return update.mutateAsync({ schedule: scheduleInput(typed) });
    },
    (saved: Preferences) => reset(scheduleValues(saved.global.schedule)),
  );
  const messages = failure?.fields ?? {};
  const others = unplacedMessages(messages, values);
  const noDayOn = WEEK_DAYS.every((day) => !values.days[day].isEnabled);
  return (
    <form aria-label="Edit the delivery schedule" onSubmit={(event) => void handleSubmit(submit)(event)} noValidate>
      <fieldset className="schedule-mode">
        <legend className="visually-hidden">When to deliver</legend>
        <label className="checkbox">
          <input type="radio" value="none" {...register('mode')} />
          No schedule: deliver at any hour
        </label>
        <label className="checkbox">
          <input type="radio" value="weekly" {...register('mode')} />
          Only on these days and hours (the subscriber’s time zone; UTC when none is set)
        </label>
      </fieldset>
      {values.mode === 'weekly'
        ? WEEK_DAYS.map((day) => (
            <DayFields key={day} day={day} control={control} register={register} messages={messages} />
          ))
        : null}
      {values.mode === 'weekly' && noDayOn ? (
        // The engine holds nothing for a slot that never comes (it would lose the messages).
        <p className="muted">With every day off the schedule holds nothing back: messages go out at any hour.</p>
      ) : null}
      {others.length ? (
        <p className="field-error" role="alert">
          {others.join('; ')}
        </p>
      ) : null}
      <FormError message={Object.keys(messages).length ? undefined : failure?.message} />
      <button type="submit" disabled={update.isPending}>
        Save schedule
      </button>
      {update.isSuccess && !failure ? <p role="status">Schedule saved.</p> : null}
    </form>
  );
}
