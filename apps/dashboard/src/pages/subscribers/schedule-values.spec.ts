import { describe, expect, it } from '@jest/globals';
import { scheduleInput, scheduleValues, timeMessages, to24Hour, unplacedMessages } from './schedule-values.js';

const closedWeek = () => scheduleValues({ isEnabled: true, weeklySchedule: {} });

describe('the schedule form’s values', () => {
  it('reads stored 12-hour times as HH:MM, around noon and midnight', () => {
    expect(['12:00 AM', '12:30 PM', '09:05 am', '11:59 PM', '1:00 PM'].map(to24Hour)).toEqual([
      '00:00',
      '12:30',
      '09:05',
      '23:59',
      '13:00',
    ]);
    expect(to24Hour('noon')).toBe('noon');
  });

  it('sends HH:MM as the API’s 12-hour times, every day named, a day off without its ranges', () => {
    const values = closedWeek();
    values.mode = 'weekly';
    values.days.monday = { isEnabled: true, hours: [{ start: '00:15', end: '12:00' }] };
    values.days.tuesday = { isEnabled: false, hours: [{ start: '09:00', end: '17:00' }] };
    values.days.sunday = { isEnabled: true, hours: [{ start: '22:00', end: '6:30' }] };
    const sent = scheduleInput(values);
    expect(sent?.weeklySchedule).toEqual({
      monday: { isEnabled: true, hours: [{ start: '12:15 AM', end: '12:00 PM' }] },
      tuesday: { isEnabled: false },
      wednesday: { isEnabled: false },
      thursday: { isEnabled: false },
      friday: { isEnabled: false },
      saturday: { isEnabled: false },
      sunday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '06:30 AM' }] },
    });
    expect(sent?.isEnabled).toBe(true);
  });

  it('sends an on day without ranges without hours (open all day), and no schedule as null', () => {
    const values = closedWeek();
    values.days.friday = { isEnabled: true, hours: [] };
    expect(scheduleInput({ ...values, mode: 'weekly' })?.weeklySchedule?.friday).toEqual({ isEnabled: true });
    expect(scheduleInput({ ...values, mode: 'none' })).toBeNull();
  });

  it('reads a stored schedule back as it was sent, and a day stored with no hours as closed', () => {
    const stored = {
      isEnabled: true,
      weeklySchedule: {
        monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
        tuesday: { isEnabled: true },
        wednesday: { isEnabled: true, hours: [] },
      },
    };
    const values = scheduleValues(stored);
    expect(values.mode).toBe('weekly');
    expect(values.days.monday).toEqual({ isEnabled: true, hours: [{ start: '09:00', end: '17:00' }] });
    expect(values.days.tuesday).toEqual({ isEnabled: true, hours: [] });
    expect(values.days.wednesday.isEnabled).toBe(false);
    expect(values.days.thursday.isEnabled).toBe(false);
    expect(scheduleInput(values)?.weeklySchedule?.monday).toEqual(stored.weeklySchedule.monday);
  });

  it('starts without a schedule from weekdays at office hours, and a disabled one as no schedule', () => {
    const fresh = scheduleValues(undefined);
    expect(fresh.mode).toBe('none');
    expect(fresh.days.friday).toEqual({ isEnabled: true, hours: [{ start: '09:00', end: '17:00' }] });
    expect(fresh.days.saturday.isEnabled).toBe(false);
    expect(scheduleValues({ isEnabled: false, weeklySchedule: {} }).mode).toBe('none');
  });

  it('refuses times that are not HH:MM on open days only, by the API’s paths', () => {
    const values = closedWeek();
    values.days.monday = { isEnabled: true, hours: [{ start: '24:00', end: '9:60' }] };
    values.days.tuesday = { isEnabled: false, hours: [{ start: 'soon', end: '' }] };
    values.days.wednesday = { isEnabled: true, hours: [{ start: '7:05', end: '23:59' }] };
    expect(Object.keys(timeMessages(values))).toEqual([
      'schedule.weeklySchedule.monday.hours[0].start',
      'schedule.weeklySchedule.monday.hours[0].end',
    ]);
    expect(timeMessages({ ...values, mode: 'none' })).toEqual({});
  });

  it('lists the messages no range input shows, each naming its field', () => {
    const values = closedWeek();
    values.days.monday = { isEnabled: true, hours: [{ start: '09:00', end: '17:00' }] };
    const messages = {
      'schedule.weeklySchedule.monday.hours[0].start': ['shown next to its input'],
      'schedule.weeklySchedule.tuesday.hours[0].start': ['schedule.weeklySchedule.tuesday.hours[0].start is bad'],
      schedule: ['too late'],
    };
    expect(unplacedMessages(messages, values)).toEqual([
      'schedule.weeklySchedule.tuesday.hours[0].start is bad',
      'schedule: too late',
    ]);
  });
});
