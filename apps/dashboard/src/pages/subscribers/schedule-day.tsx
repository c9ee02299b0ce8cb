import { useFieldArray, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import type { FieldMessages } from '../../api/client';
import { Field, describedBy } from '../../ui/field';
import { dayName, OFFICE_HOURS, rangePath, type ScheduleValues, type WeekDay } from './schedule-values';

interface DayProps {
  day: WeekDay;
  control: Control<ScheduleValues>;
  register: UseFormRegister<ScheduleValues>;
  messages: FieldMessages;
}

/** One time of a range; its accessible name says which day and range it belongs to. */
function TimeInput({ day, index, edge, register, messages }: Omit<DayProps, 'control'> & RangeEdge) {
  const id = `schedule-${day}-${index}-${edge}`;
  const own = messages[rangePath(day, index, edge)];
  const label = (
    <>
      <span className="visually-hidden">
        {dayName(day)}, range {index + 1}:{' '}
      </span>
      {edge === 'start' ? 'Start' : 'End'}
    </>
  );
  return (
    <Field id={id} label={label} messages={own}>
      <input
        id={id}
        placeholder="HH:MM"
        inputMode="numeric"
        autoComplete="off"
        {...describedBy(id, own)}
        {...register(`days.${day}.hours.${index}.${edge}`)}
      />
    </Field>
  );
}

interface RangeEdge {
  index: number;
  edge: 'start' | 'end';
}

/** A day's switch and, when it is on, its ranges (none: open all day). */
export function DayFields({ day, control, register, messages }: DayProps) {
  const ranges = useFieldArray({ control, name: `days.${day}.hours` });
  const isEnabled = useWatch({ control, name: `days.${day}.isEnabled` });
  const name = dayName(day);
  return (
    <fieldset className="schedule-day">
      <legend>
        <label className="checkbox">
          <input type="checkbox" role="switch" {...register(`days.${day}.isEnabled`)} />
          {name}
        </label>
      </legend>
      {isEnabled ? null : <p className="muted">Closed</p>}
      {isEnabled && ranges.fields.length === 0 ? <p className="muted">All day</p> : null}
      {isEnabled
        ? ranges.fields.map((range, index) => (
            <div key={range.id} className="schedule-range">
              <TimeInput day={day} index={index} edge="start" register={register} messages={messages} />
              <TimeInput day={day} index={index} edge="end" register={register} messages={messages} />
              <button
                type="button"
                aria-label={`Remove ${name} range ${index + 1}`}
                onClick={() => ranges.remove(index)}
              >
                Remove
              </button>
            </div>
          ))
        : null}
      {isEnabled ? (
        <button type="button" aria-label={`Add a range on ${name}`} onClick={() => ranges.append({ ...OFFICE_HOURS })}>
          Add a range
        </button>
      ) : null}
    </fieldset>
  );
}
